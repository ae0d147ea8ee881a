import type { PagingQuery } from '@ledger-api/http';
import { recordCollection, STORE_COLLECTIONS, type BurnDoc } from '@ledger-api/nft-model';
import type { Store } from '@ledger-api/store';
import { burnsList } from './query-config';

export function burnsRepository(store: Store) {
  const burns = recordCollection<BurnDoc>(store, STORE_COLLECTIONS.burns, burnsList);
  return {
    list: (query: PagingQuery) => burns.page({}, query),
    findById: burns.findById,
  };
}
