import type { PagingQuery } from '@ledger-api/http';
import { baseWalletReader, recordCollection, STORE_COLLECTIONS, type CollectionDoc } from '@ledger-api/nft-model';
import type { Store } from '@ledger-api/store';
import { containmentFilter } from '../search/containment';
import { collectionsList } from './query-config';
import type { CollectionSearch } from './schema';

export function collectionsRepository(store: Store) {
  const collections = recordCollection<CollectionDoc>(store, STORE_COLLECTIONS.collections, collectionsList);
  const wallets = baseWalletReader(store);
  return {
    list: (query: PagingQuery) => collections.page({}, query),
    search: (body: CollectionSearch, query: PagingQuery) => collections.page(containmentFilter(body), query),
    findById: collections.findById,
    /** The base-form wallet of the collection's registrant; null for an unknown collection. */
    async registrantWallet(id: string) {
      const collection = await collections.findById(id);
      return collection && wallets.baseWallet(collection.registrantAddress);
    },
  };
}
