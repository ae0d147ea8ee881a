import type { PagingQuery } from '@ledger-api/http';
import { baseWalletReader, findPage, STORE_COLLECTIONS, type CollectionDoc } from '@ledger-api/nft-model';
import type { Store } from '@ledger-api/store';
import { containmentFilter } from '../search/containment';
import { collectionsList } from './query-config';
import type { CollectionSearch } from './schema';

export function collectionsRepository(store: Store) {
  const collections = store.collection<CollectionDoc>(STORE_COLLECTIONS.collections);
  const wallets = baseWalletReader(store);
  return {
    list: (query: PagingQuery) => findPage(collections, {}, collectionsList, query),
    search: (body: CollectionSearch, query: PagingQuery) => findPage(collections, containmentFilter('', body), collectionsList, query),
    findById: (id: string) => collections.findById(id),
    /** The base-form wallet of the collection's registrant; null for an unknown collection. */
    async registrantWallet(id: string) {
      const collection = await collections.findById(id);
      return collection && wallets.baseWallet(collection.registrantAddress);
    },
  };
}
