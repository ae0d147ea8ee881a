import { findKeysetPage } from './keyset-page';
import type { Filter, KeysetPosition, Page, PageSource, Sort } from './types';

export type SortDirection = 'asc' | 'desc';

/** A sort on one stored field, e.g. `{ field: 'sortKeys.fee', direction: 'desc' }`. */
export interface FieldOrder {
  field: string;
  direction: SortDirection;
}

/**
 * Which slice of an ordered result a list reads: 1-based `page` of `limit`
 * items, or from `offset` when that is not zero, sorted on `orderBy` first;
 * with a `cursor`, the `limit` items at that keyset position instead.
 */
export interface PageRequest {
  page: number;
  limit: number;
  offset?: number;
  orderBy?: FieldOrder;
  cursor?: KeysetPosition;
}

export interface FindWindow {
  sort: Sort;
  skip: number;
  limit: number;
}

/** Ids are unique, so nothing ever ties on `_id`. */
const UNIQUE_FIELD = '_id';

/**
 * The sort of a list read. The default order follows the requested field, so
 * items that tie on it keep one order from page to page. A sort on `_id`
 * takes no tie-breaker: it would never decide anything, and without it the
 * always-present `_id` index serves the sort both ways.
 */
export function listSort(orderBy: FieldOrder | undefined, defaultOrder: Sort): Sort {
  const sort: Sort = {};
  if (orderBy) sort[orderBy.field] = orderBy.direction === 'asc' ? 1 : -1;
  for (const [field, direction] of Object.entries(defaultOrder)) {
    if (UNIQUE_FIELD in sort) break;
    if (!(field in sort)) sort[field] = direction;
  }
  return sort;
}

/** The sort, skip and limit of a page request. */
export function findWindow(request: PageRequest, defaultOrder: Sort): FindWindow {
  const skip = request.offset ? request.offset : (request.page - 1) * request.limit;
  return { sort: listSort(request.orderBy, defaultOrder), skip, limit: request.limit };
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

/**
 * One page of the documents matching `filter`, with the count of all of them;
 * a keyset read (`request.cursor`) also gives the positions of the pages beside it.
 */
export async function findPage<T>(source: PageSource<T>, filter: Filter, request: PageRequest, list: ListOrder): Promise<Page<T>> {
  const totalCount = () => countOf(source, filter, list);
  if (request.cursor) {
    const sort = listSort(request.orderBy, list.defaultOrder);
    return findKeysetPage(source, filter, { sort, limit: request.limit, position: request.cursor }, totalCount);
  }
  const [items, count] = await Promise.all([source.find(filter, findWindow(request, list.defaultOrder)), totalCount()]);
  return { items, totalCount: count };
}
