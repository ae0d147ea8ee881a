import type { BidDoc } from '@ledger-api/nft-read-model';
import type { z } from 'zod';
import type { bidResource } from './schema';

export function presentBid(doc: BidDoc): z.infer<typeof bidResource> {
  return {
    id: doc._id,
    senderPublicKey: doc.senderPublicKey,
    nftBid: { auctionId: doc.auctionId, bidAmount: doc.bidAmount },
    timestamp: doc.timestamp,
  };
}
