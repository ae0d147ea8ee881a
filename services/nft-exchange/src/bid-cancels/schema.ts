import { timestampResource } from '@ledger-api/nft-read-model';
import { z } from 'zod';

export const canceledBidResource = z
  .object({
    id: z.string(),
    senderPublicKey: z.string(),
    nftBidCancel: z.object({ bidId: z.string() }),
    timestamp: timestampResource,
  })
  .meta({
    id: 'CanceledBid',
    title: 'Canceled bid',
    examples: [
      {
        id: '67f8d375eb0745043a82ba9d001d7b59eb1918704e432895eae093e9928a441c',
        senderPublicKey: '03547daceb5b88e74aa82c33143abe342961dcd710a4c424c13343c25576699aef',
        nftBidCancel: { bidId: '2452ce7b790b02ec86945648fc890f05ae639a40f14199a294c7633640ad3f78' },
        timestamp: { epoch: 124455728, unix: 1614556928, human: '2021-03-01T00:02:08.000Z' },
      },
    ],
  });
