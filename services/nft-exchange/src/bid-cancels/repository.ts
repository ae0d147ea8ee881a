import type { PagingQuery } from '@ledger-api/http';
import { recordCollection, STORE_COLLECTIONS, type BidCancelDoc } from '@ledger-api/nft-model';
import type { Store } from '@ledger-api/store';
import { canceledBidsList } from './query-config';

export function canceledBidsRepository(store: Store) {
  const cancels = recordCollection<BidCancelDoc>(store, STORE_COLLECTIONS.bidCancels, canceledBidsList);
  return {
    list: (query: PagingQuery) => cancels.page({}, query),
    findById: cancels.findById,
  };
}
