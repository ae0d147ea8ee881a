import { findPage, type ListConfig, type Page, type PagingQuery } from '@ledger-api/http';
import type { Filter, Store } from '@ledger-api/store';
import type { LedgerRecord } from './ledger-record';

/** By-id and paged reads of one collection of ledger records, ordered as its list config says. */
export function recordCollection<T extends LedgerRecord>(store: Store, name: string, config: ListConfig) {
  const collection = store.collection<T>(name);
  return {
    collection,
    findById: (id: string) => collection.findById(id),
    page: (filter: Filter, query: PagingQuery): Promise<Page<T>> => findPage(collection, filter, config, query),
  };
}
