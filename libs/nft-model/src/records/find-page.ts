import { findWindow, type ListConfig, type PagingQuery } from '@ledger-api/http';
import type { Doc, Filter, ReadCollection } from '@ledger-api/store';

export interface Page<T> {
  items: T[];
  totalCount: number;
}

/** One page of a list route's matches, in the route's order, with the total count. */
export async function findPage<T extends Doc>(collection: ReadCollection<T>, filter: Filter, config: ListConfig, query: PagingQuery): Promise<Page<T>> {
  const [items, totalCount] = await Promise.all([collection.find(filter, findWindow(config, query)), collection.count(filter)]);
  return { items, totalCount };
}
