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
  .meta({ title: 'Bid' });

export const bidSearchBody = z
  .strictObject({
    senderPublicKey: publicKey('Public key of the bidder').optional(),
    auctionId: transactionId('The auction bid on').optional(),
    bidAmount: decimalAmount('The amount bid').optional(),
  })
  .meta({ description: 'Members combine with AND; `{}` matches every bid, whatever its state' });

export type BidSearch = z.output<typeof bidSearchBody>;
