import type { AuctionDoc } from '@ledger-api/nft-read-model';
import type { z } from 'zod';
import { presentBid } from '../bids/presenter';
import type { AuctionWithBids } from './repository';
import type { auctionDetailResource, auctionResource, auctionTermsResource } from './schema';

export function presentAuctionTerms(doc: AuctionDoc): z.infer<typeof auctionTermsResource> {
  return { nftId: doc.nftIds[0], nftIds: doc.nftIds, startAmount: doc.startAmount, expiration: { blockHeight: doc.expirationHeight } };
}

export function presentAuctionDetail(doc: AuctionDoc): z.infer<typeof auctionDetailResource> {
  return { id: doc._id, senderPublicKey: doc.senderPublicKey, nftAuction: presentAuctionTerms(doc), timestamp: doc.timestamp };
}

/** The list and search form; `bids` only when the search asked for them. */
export function presentAuction({ bids, ...doc }: AuctionWithBids): z.infer<typeof auctionResource> {
  return {
    id: doc._id,
    senderPublicKey: doc.senderPublicKey,
    nftAuction: {
      nftIds: doc.nftIds,
      startAmount: doc.startAmount,
      expiration: { blockHeight: doc.expirationHeight },
      ...(bids && { bids: bids.map(presentBid) }),
    },
    timestamp: doc.timestamp,
  };
}
