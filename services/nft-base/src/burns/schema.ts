import { timestampResource } from '@ledger-api/nft-read-model';
import { z } from 'zod';

export const burnResource = z
  .object({
    id: z.string(),
    senderPublicKey: z.string(),
    nftBurn: z.object({ nftId: z.string() }),
    timestamp: timestampResource,
  })
  .meta({ title: 'Burn' });
