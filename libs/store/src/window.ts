import type { Filter, FindOptions, Sort } from './types';

export type SortDirection = 'asc' | 'desc';

/** A sort on one stored field, e.g. `{ field: 'sortKeys.fee', direction: 'desc' }`. */
export interface FieldOrder {
  field: string;
  direction: SortDirection;
}

/**
 * Which slice of an ordered result a list reads: 1-based `page` of `limit`
 * items, or from `offset` when that is not zero, sorted on `orderBy` first.
 */
export interface PageRequest {
  page: number;
  limit: number;
  offset?: number;
  orderBy?: FieldOrder;
}

export interface FindWindow {
  sort: Sort;
  skip: number;
  limit: number;
}

/** Ids are unique, so nothing ever ties on `_id`. */
const UNIQUE_FIELD = '_id';

/**
 * The sort, skip and limit of a page request. The default order follows the
 * requested field, so items that tie on it keep one order from page to page.
 * A sort on `_id` takes no tie-breaker: it would never decide anything, and
 * without it the always-present `_id` index serves the sort both ways.
 */
export function findWindow(request: PageRequest, defaultOrder: Sort): FindWindow {
  const sort: Sort = {};
  if (request.orderBy) sort[request.orderBy.field] = request.orderBy.direction === 'asc' ? 1 : -1;
  for (const [field, direction] of Object.entries(defaultOrder)) {
    if (UNIQUE_FIELD in sort) break;
    if (!(field in sort)) sort[field] = direction;
  }
  const skip = request.offset ? request.offset : (request.page - 1) * request.limit;
  return { sort, skip, limit: request.limit };
}

export interface Page<T> {
  items: T[];
  totalCount: number;
}

/** What a paged read needs of a collection; a store collection is one. */
export interface PageSource<T> {
  find(filter: Filter, options: FindOptions): Promise<T[]>;
  count(filter: Filter): Promise<number>;
  estimatedCount(): Promise<number>;
}

/** How a list orders its items, and whether its contract calls totalCount an estimate. */
export interface ListOrder {
  defaultOrder: Sort;
  totalCountIsEstimate?: boolean;
}

/**
 * The count of a list: the collection's estimate where the contract allows an
 * estimate and nothing narrows the list, which costs no scan however large the
 * collection; an exact count otherwise.
 */
function countOf<T>(source: PageSource<T>, filter: Filter, list: ListOrder): Promise<number> {
  const unfiltered = Object.keys(filter).length === 0;
  return list.totalCountIsEstimate && unfiltered ? source.estimatedCount() : source.count(filter);
}

/** One page of the documents matching `filter`, with the count of all of them. */
export async function findPage<T>(source: PageSource<T>, filter: Filter, request: PageRequest, list: ListOrder): Promise<Page<T>> {
  const [items, totalCount] = await Promise.all([source.find(filter, findWindow(request, list.defaultOrder)), countOf(source, filter, list)]);
  return { items, totalCount };
}
