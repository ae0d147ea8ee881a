import { LEDGER_RECORD_LIST, STORE_COLLECTIONS, type AuctionDoc, type BidDoc, type TradeDoc } from '@ledger-api/nft-read-model';
import { allOf, findByIds, findPage, type Filter, type PageRequest, type Store } from '@ledger-api/store';
import type { TradeSearch } from './schema';

/** A trade with the auction it closed and the bid it accepted. */
export interface TradeWithParties extends TradeDoc {
  auction: AuctionDoc | null;
  bid: BidDoc | null;
}

function tradeSearchFilter(search: TradeSearch): Filter {
  const conditions: Filter[] = [];
  if (search.senderPublicKey !== undefined) conditions.push({ senderPublicKey: { $eq: search.senderPublicKey } });
  if (search.auctionId !== undefined) conditions.push({ auctionId: { $eq: search.auctionId } });
  if (search.bidId !== undefined) conditions.push({ bidId: { $eq: search.bidId } });
  return allOf(conditions);
}

export function tradesRepository(store: Store) {
  const trades = store.collection<TradeDoc>(STORE_COLLECTIONS.trades);
  const auctions = store.collection<AuctionDoc>(STORE_COLLECTIONS.auctions);
  const bids = store.collection<BidDoc>(STORE_COLLECTIONS.bids);
  return {
    list: (query: PageRequest) => findPage(trades, {}, query, LEDGER_RECORD_LIST),
    search: (search: TradeSearch, query: PageRequest) => findPage(trades, tradeSearchFilter(search), query, LEDGER_RECORD_LIST),
    /** The trade with its auction and bid; null for an unknown trade. */
    async findById(id: string): Promise<TradeWithParties | null> {
      const trade = await trades.findById(id);
      if (!trade) return null;
      const [auction, bid] = await Promise.all([auctions.findById(trade.auctionId), bids.findById(trade.bidId)]);
      return { ...trade, auction, bid };
    },
    /** The trades of the ids that exist, by id, each with its auction and bid: one query per collection, whatever the number of ids. */
    async findByIds(ids: string[]): Promise<Map<string, TradeWithParties>> {
      const found = [...(await findByIds(trades, ids)).values()];
      const auctionIds = found.map((trade) => trade.auctionId);
      const bidIds = found.map((trade) => trade.bidId);
      const [auctionsById, bidsById] = await Promise.all([findByIds(auctions, auctionIds), findByIds(bids, bidIds)]);
      const withParties = found.map((trade) => ({
        ...trade,
        auction: auctionsById.get(trade.auctionId) ?? null,
        bid: bidsById.get(trade.bidId) ?? null,
      }));
      return new Map(withParties.map((trade) => [trade._id, trade]));
    },
  };
}
