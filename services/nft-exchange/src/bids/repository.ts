import type { PagingQuery } from '@ledger-api/http';
import { LEDGER_ORDER, recordCollection, STORE_COLLECTIONS, type BidDoc, type BidStatus } from '@ledger-api/nft-model';
import { allOf, type Filter, type Store } from '@ledger-api/store';
import { amountEquals } from '../shared/search';
import { bidsList } from './query-config';
import type { BidSearch } from './schema';

function bidSearchFilter(search: BidSearch): Filter {
  const conditions: Filter[] = [];
  if (search.senderPublicKey !== undefined) conditions.push({ senderPublicKey: { $eq: search.senderPublicKey } });
  if (search.auctionId !== undefined) conditions.push({ auctionId: { $eq: search.auctionId } });
  if (search.bidAmount !== undefined) conditions.push({ 'sortKeys.bidAmount': amountEquals(search.bidAmount) });
  return allOf(conditions);
}

export function bidsRepository(store: Store) {
  const bids = recordCollection<BidDoc>(store, STORE_COLLECTIONS.bids, bidsList);
  return {
    list: (query: PagingQuery) => bids.page({}, query),
    search: (search: BidSearch, query: PagingQuery) => bids.page(bidSearchFilter(search), query),
    findById: bids.findById,
    /** The bids in the given states on each of the auctions, in ledger order. */
    async ofAuctions(auctionIds: string[], statuses: BidStatus[]): Promise<Map<string, BidDoc[]>> {
      const filter = { auctionId: { $in: auctionIds }, status: { $in: statuses } };
      const found = auctionIds.length === 0 ? [] : await bids.collection.find(filter, { sort: LEDGER_ORDER });
      const byAuction = new Map<string, BidDoc[]>(auctionIds.map((id) => [id, []]));
      for (const bid of found) byAuction.get(bid.auctionId)?.push(bid);
      return byAuction;
    },
  };
}
