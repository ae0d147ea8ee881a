import { publicKey, transactionId } from '@ledger-api/http';
import { resourceOrTransaction, timestampResource } from '@ledger-api/nft-read-model';
import { z } from 'zod';
import { bidResource } from '../bids/schema';
import { decimalAmount } from '../shared/amounts';

const expirationResource = z.object({ blockHeight: z.number().int() });

const AUCTION_TERMS_EXAMPLE = {
  nftId: '914c68bd1253e6e272e35aaa6325db3c22447f51e032151f948f9291e7429cfe',
  nftIds: ['914c68bd1253e6e272e35aaa6325db3c22447f51e032151f948f9291e7429cfe', '37945b56fd04440e0bd3c3bc318587bc2bc740825bf6c31e61d2ffc45c93bf86'],
  startAmount: '355910000000',
  expiration: { blockHeight: 2563 },
};

/** What an auction offers: shared by the by-id form and a trade's expanded auction. */
export const auctionTermsResource = z
  .object({
    nftId: z.string().meta({ description: 'The first of the auction NFTs' }),
    nftIds: z.array(z.string()),
    startAmount: z.string().meta({ description: 'Decimal string' }),
    expiration: expirationResource,
  })
  .meta({ id: 'AuctionTerms', examples: [AUCTION_TERMS_EXAMPLE] });

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
  .meta({
    id: 'Auction',
    examples: [
      {
        id: 'a26ad210aa9ef7b40acf00e64bb38d09597172f96b55327b886cab1b44d5b348',
        senderPublicKey: '03c373f3472ea7d534f4d262c65230e5215b049211771b4d00de723726045c513e',
        nftAuction: {
          nftIds: [
            '914c68bd1253e6e272e35aaa6325db3c22447f51e032151f948f9291e7429cfe',
            '37945b56fd04440e0bd3c3bc318587bc2bc740825bf6c31e61d2ffc45c93bf86',
          ],
          startAmount: '355910000000',
          expiration: { blockHeight: 2563 },
        },
        timestamp: { epoch: 124459760, unix: 1614560960, human: '2021-03-01T01:09:20.000Z' },
      },
    ],
  });

export const auctionDetailResource = z
  .object({ id: z.string(), senderPublicKey: z.string(), nftAuction: auctionTermsResource, timestamp: timestampResource })
  .meta({
    id: 'AuctionDetail',
    title: 'Auction (by-id form)',
    examples: [
      {
        id: 'a26ad210aa9ef7b40acf00e64bb38d09597172f96b55327b886cab1b44d5b348',
        senderPublicKey: '03c373f3472ea7d534f4d262c65230e5215b049211771b4d00de723726045c513e',
        nftAuction: AUCTION_TERMS_EXAMPLE,
        timestamp: { epoch: 124459760, unix: 1614560960, human: '2021-03-01T01:09:20.000Z' },
      },
    ],
  });

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
