import type { AuctionCancelDoc } from '@ledger-api/nft-read-model';
import type { z } from 'zod';
import type { canceledAuctionResource } from './schema';

export function presentCanceledAuction(doc: AuctionCancelDoc): z.infer<typeof canceledAuctionResource> {
  return { id: doc._id, senderPublicKey: doc.senderPublicKey, nftAuctionCancel: { auctionId: doc.auctionId }, timestamp: doc.timestamp };
}
