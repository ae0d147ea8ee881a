import type { PagingQuery } from '@ledger-api/http';
import { recordCollection, STORE_COLLECTIONS, type AuctionCancelDoc } from '@ledger-api/nft-model';
import type { Store } from '@ledger-api/store';
import { canceledAuctionsList } from './query-config';

export function canceledAuctionsRepository(store: Store) {
  const cancels = recordCollection<AuctionCancelDoc>(store, STORE_COLLECTIONS.auctionCancels, canceledAuctionsList);
  return {
    list: (query: PagingQuery) => cancels.page({}, query),
    findById: cancels.findById,
  };
}
