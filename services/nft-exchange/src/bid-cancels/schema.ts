import { timestampResource } from '@ledger-api/nft-read-model';
import { z } from 'zod';

export const canceledBidResource = z
  .object({
    id: z.string(),
    senderPublicKey: z.string(),
    nftBidCancel: z.object({ bidId: z.string() }),
    timestamp: timestampResource,
  })
  .meta({ title: 'Canceled bid' });
