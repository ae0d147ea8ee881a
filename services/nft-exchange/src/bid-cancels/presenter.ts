import type { BidCancelDoc } from '@ledger-api/nft-read-model';
import type { z } from 'zod';
import type { canceledBidResource } from './schema';

export function presentCanceledBid(doc: BidCancelDoc): z.infer<typeof canceledBidResource> {
  return { id: doc._id, senderPublicKey: doc.senderPublicKey, nftBidCancel: { bidId: doc.bidId }, timestamp: doc.timestamp };
}
