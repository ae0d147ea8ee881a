import { findWindow, type ListConfig, type PagingQuery } from '@ledger-api/http';
import type { Doc, Filter, ReadCollection, Store } from '@ledger-api/store';
import type { LedgerRecord } from './ledger-record';

export interface Page<T> {
  items: T[];
  totalCount: number;
}

/** One page of a list route's matches, in the route's order, with the total count. */
export async function findPage<T extends Doc>(collection: ReadCollection<T>, filter: Filter, config: ListConfig, query: PagingQuery): Promise<Page<T>> {
  const [items, totalCount] = await Promise.all([collection.find(filter, findWindow(config, query)), collection.count(filter)]);
  return { items, totalCount };
}

/** By-id and paged reads of one collection of ledger records, ordered as its list config says. */
export function recordCollection<T extends LedgerRecord>(store: Store, name: string, config: ListConfig) {
  const collection = store.collection<T>(name);
  return {
    collection,
    findById: (id: string) => collection.findById(id),
    page: (filter: Filter, query: PagingQuery): Promise<Page<T>> => findPage(collection, filter, config, query),
  };
}
