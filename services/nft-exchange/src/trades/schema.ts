import { publicKey, transactionId } from '@ledger-api/http';
import { timestampResource } from '@ledger-api/nft-read-model';
import { z } from 'zod';
import { auctionTermsResource } from '../auctions/schema';

/** The list and search form. */
export const tradeResource = z
  .object({
    id: z.string(),
    senderPublicKey: z.string(),
    completedTrade: z.object({ auctionId: z.string(), bidId: z.string() }),
    timestamp: timestampResource,
  })
  .meta({ title: 'Trade' });

/** The by-id form: the auction and the accepted bid expanded. */
export const tradeDetailResource = z
  .object({
    id: z.string(),
    senderPublicKey: z.string(),
    completedTrade: z.object({
      auction: z.object({ id: z.string(), ...auctionTermsResource.shape }).optional(),
      bid: z.object({ id: z.string(), auctionId: z.string(), bidAmount: z.string().meta({ description: 'Decimal string' }) }).optional(),
    }),
    timestamp: timestampResource,
  })
  .meta({ title: 'Trade (by-id form)', description: 'auction and bid are left out only if the ledger never recorded them' });

export const tradeSearchBody = z
  .strictObject({
    senderPublicKey: publicKey('Public key of the seller who accepted the bid').optional(),
    auctionId: transactionId('The auction traded').optional(),
    bidId: transactionId('The accepted bid').optional(),
  })
  .meta({ description: 'Members combine with AND; `{}` matches every trade' });

export type TradeSearch = z.output<typeof tradeSearchBody>;
