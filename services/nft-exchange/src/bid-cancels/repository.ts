import { LEDGER_RECORD_LIST, STORE_COLLECTIONS, type BidCancelDoc } from '@ledger-api/nft-read-model';
import { findPage, type PageRequest, type Store } from '@ledger-api/store';

export function canceledBidsRepository(store: Store) {
  const cancels = store.collection<BidCancelDoc>(STORE_COLLECTIONS.bidCancels);
  return {
    list: (query: PageRequest) => findPage(cancels, {}, query, LEDGER_RECORD_LIST),
    findById: (id: string) => cancels.findById(id),
  };
}
