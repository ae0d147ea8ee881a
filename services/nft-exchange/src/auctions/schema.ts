import { publicKey, transactionId } from '@ledger-api/http';
import { resourceOrTransaction, timestampResource } from '@ledger-api/nft-read-model';
import { z } from 'zod';
import { bidResource } from '../bids/schema';
import { decimalAmount } from '../shared/amounts';

const expirationResource = z.object({ blockHeight: z.number().int() });

/** What an auction offers: shared by the by-id form and a trade's expanded auction. */
export const auctionTermsResource = z.object({
  nftId: z.string().meta({ description: 'The first of the auction NFTs' }),
  nftIds: z.array(z.string()),
  startAmount: z.string().meta({ description: 'Decimal string' }),
  expiration: expirationResource,
});

/** The list and search form. */
export const auctionResource = z
  .object({
    id: z.string(),
    senderPublicKey: z.string(),
    nftAuction: z.object({
      nftIds: z.array(z.string()),
      startAmount: z.string().meta({ description: 'Decimal string' }),
      expiration: expirationResource,
      bids: z.array(bidResource).optional().meta({ description: 'With includeBids: the bids on the auction, in ledger order' }),
    }),
    timestamp: timestampResource,
  })
  .meta({ title: 'Auction' });

export const auctionDetailResource = z
  .object({ id: z.string(), senderPublicKey: z.string(), nftAuction: auctionTermsResource, timestamp: timestampResource })
  .meta({ title: 'Auction (by-id form)' });

export const auctionOrTransaction = resourceOrTransaction(auctionResource);

const blockHeight = z.number().int().min(1);

export const auctionSearchBody = z
  .strictObject({
    senderPublicKey: publicKey('Public key of the seller').optional(),
    nftId: transactionId('An NFT the auction includes').optional(),
    nftIds: z.array(transactionId()).optional().meta({ description: 'NFTs the auction includes, all of them' }),
    startAmount: decimalAmount('The start amount').optional(),
    'expiration.blockHeight': blockHeight.optional(),
    expiration: z.strictObject({ blockHeight: blockHeight.optional() }).optional(),
  })
  .meta({ description: 'Members combine with AND; `{}` matches every auction, whatever its state unless onlyActive' });

export type AuctionSearch = z.output<typeof auctionSearchBody>;
