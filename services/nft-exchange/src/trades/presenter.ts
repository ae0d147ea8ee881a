import type { TradeDoc } from '@ledger-api/nft-read-model';
import type { z } from 'zod';
import { presentAuctionTerms } from '../auctions/presenter';
import type { TradeWithParties } from './repository';
import type { tradeDetailResource, tradeResource } from './schema';

export function presentTrade(doc: TradeDoc): z.infer<typeof tradeResource> {
  return {
    id: doc._id,
    senderPublicKey: doc.senderPublicKey,
    completedTrade: { auctionId: doc.auctionId, bidId: doc.bidId },
    timestamp: doc.timestamp,
  };
}

export function presentTradeDetail({ auction, bid, ...trade }: TradeWithParties): z.infer<typeof tradeDetailResource> {
  return {
    id: trade._id,
    senderPublicKey: trade.senderPublicKey,
    completedTrade: {
      ...(auction && { auction: { id: auction._id, ...presentAuctionTerms(auction) } }),
      ...(bid && { bid: { id: bid._id, auctionId: bid.auctionId, bidAmount: bid.bidAmount } }),
    },
    timestamp: trade.timestamp,
  };
}
