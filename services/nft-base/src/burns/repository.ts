import { LEDGER_RECORD_LIST, STORE_COLLECTIONS, type BurnDoc } from '@ledger-api/nft-read-model';
import { findByIds, findPage, type PageRequest, type Store } from '@ledger-api/store';

export function burnsRepository(store: Store) {
  const burns = store.collection<BurnDoc>(STORE_COLLECTIONS.burns);
  return {
    list: (query: PageRequest) => findPage(burns, {}, query, LEDGER_RECORD_LIST),
    findById: (id: string) => burns.findById(id),
    /** The burns of the ids that exist, by id, in one query. */
    findByIds: (ids: string[]) => findByIds(burns, ids),
  };
}
