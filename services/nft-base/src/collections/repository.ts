import { baseWalletReader, STORE_COLLECTIONS, type CollectionDoc } from '@ledger-api/nft-read-model';
import { findByIds, findPage, type PageRequest, type Store } from '@ledger-api/store';
import { containmentFilter } from '../search/containment';
import { collectionsList } from './query-config';
import type { CollectionSearch } from './schema';

export function collectionsRepository(store: Store) {
  const collections = store.collection<CollectionDoc>(STORE_COLLECTIONS.collections);
  const wallets = baseWalletReader(store);
  return {
    list: (query: PageRequest) => findPage(collections, {}, query, collectionsList),
    search: (body: CollectionSearch, query: PageRequest) => findPage(collections, containmentFilter(body), query, collectionsList),
    findById: (id: string) => collections.findById(id),
    /** The collections of the ids that exist, by id, in one query. */
    findByIds: (ids: string[]) => findByIds(collections, ids),
    /** The base-form wallet of the collection's registrant; null for an unknown collection. */
    async registrantWallet(id: string) {
      const collection = await collections.findById(id);
      return collection && wallets.baseWallet(collection.registrantAddress);
    },
  };
}
