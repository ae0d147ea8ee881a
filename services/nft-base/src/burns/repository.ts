import type { PagingQuery } from '@ledger-api/http';
import { findPage, STORE_COLLECTIONS, type BurnDoc } from '@ledger-api/nft-model';
import type { Store } from '@ledger-api/store';
import { burnsList } from './query-config';

export function burnsRepository(store: Store) {
  const burns = store.collection<BurnDoc>(STORE_COLLECTIONS.burns);
  return {
    list: (query: PagingQuery) => findPage(burns, {}, burnsList, query),
    findById: (id: string) => burns.findById(id),
  };
}
