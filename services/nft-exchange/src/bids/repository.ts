import { STORE_COLLECTIONS, type BidDoc } from '@ledger-api/nft-read-model';
import { allOf, findByIds, findPage, type Filter, type PageRequest, type Store } from '@ledger-api/store';
import { amountEquals } from '../shared/amounts';
import { exchangeWalletReader } from '../wallets/exchange-wallet';
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
  const bids = store.collection<BidDoc>(STORE_COLLECTIONS.bids);
  const exchangeWallet = exchangeWalletReader(store);
  return {
    list: (query: PageRequest) => findPage(bids, {}, query, bidsList),
    search: (search: BidSearch, query: PageRequest) => findPage(bids, bidSearchFilter(search), query, bidsList),
    findById: (id: string) => bids.findById(id),
    /** The bids of the ids that exist, whatever their state, by id, in one query. */
    findByIds: (ids: string[]) => findByIds(bids, ids),
    /** The exchange-form wallet of the bidder, whatever the bid's state; null for an unknown bid. */
    async bidderWallet(id: string) {
      const bid = await bids.findById(id);
      return bid && exchangeWallet(bid.bidderAddress);
    },
  };
}
