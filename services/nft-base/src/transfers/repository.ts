import { LEDGER_RECORD_LIST, STORE_COLLECTIONS, type TransferDoc } from '@ledger-api/nft-read-model';
import { findByIds, findPage, type PageRequest, type Store } from '@ledger-api/store';

export function transfersRepository(store: Store) {
  const transfers = store.collection<TransferDoc>(STORE_COLLECTIONS.transfers);
  return {
    list: (query: PageRequest) => findPage(transfers, {}, query, LEDGER_RECORD_LIST),
    findById: (id: string) => transfers.findById(id),
    /** The transfers of the ids that exist, by id, in one query. */
    findByIds: (ids: string[]) => findByIds(transfers, ids),
  };
}
