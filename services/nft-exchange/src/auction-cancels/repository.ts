import { LEDGER_RECORD_LIST, STORE_COLLECTIONS, type AuctionCancelDoc } from '@ledger-api/nft-read-model';
import { findPage, type PageRequest, type Store } from '@ledger-api/store';

export function canceledAuctionsRepository(store: Store) {
  const cancels = store.collection<AuctionCancelDoc>(STORE_COLLECTIONS.auctionCancels);
  return {
    list: (query: PageRequest) => findPage(cancels, {}, query, LEDGER_RECORD_LIST),
    findById: (id: string) => cancels.findById(id),
  };
}
