import { timestampResource } from '@ledger-api/nft-read-model';
import { z } from 'zod';

export const canceledAuctionResource = z
  .object({
    id: z.string(),
    senderPublicKey: z.string(),
    nftAuctionCancel: z.object({ auctionId: z.string() }),
    timestamp: timestampResource,
  })
  .meta({ title: 'Canceled auction' });
