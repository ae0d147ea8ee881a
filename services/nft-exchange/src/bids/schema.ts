import { publicKey, transactionId } from '@ledger-api/http';
import { timestampResource } from '@ledger-api/nft-read-model';
import { z } from 'zod';
import { decimalAmount } from '../shared/amounts';

export const bidResource = z
  .object({
    id: z.string(),
    senderPublicKey: z.string(),
    nftBid: z.object({ auctionId: z.string(), bidAmount: z.string().meta({ description: 'Decimal string' }) }),
    timestamp: timestampResource,
  })
  .meta({
    id: 'Bid',
    examples: [
      {
        id: 'a1c9fbc0875215d87b038ab0d92365f334d7bb974c2dd1859c9ec2c4b21389f7',
        senderPublicKey: '02172535c4d92b4cdf2302311b71d09b3411ee61b86d0cb2a99d1322936e5db621',
        nftBid: { auctionId: 'c4b06f3de241e3916b964e89944578ac1f079dba134c9ccdb5bab3bd43099c03', bidAmount: '204960600001' },
        timestamp: { epoch: 124455640, unix: 1614556840, human: '2021-03-01T00:00:40.000Z' },
      },
    ],
  });

export const bidSearchBody = z
  .strictObject({
    senderPublicKey: publicKey('Public key of the bidder').optional(),
    auctionId: transactionId('The auction bid on').optional(),
    bidAmount: decimalAmount('The amount bid').optional(),
  })
  .meta({ description: 'Members combine with AND; `{}` matches every bid, whatever its state' });

export type BidSearch = z.output<typeof bidSearchBody>;
