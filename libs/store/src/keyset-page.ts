import { reverseSort, sortValues } from './keyset';
import type { AdjacentPages, Filter, KeysetPosition, Page, PageSource, Sort } from './types';

/** A keyset read: the list's sort, the page size and where the page starts. */
export interface KeysetWindow {
  sort: Sort;
  limit: number;
  position: KeysetPosition;
}

/** A page's items in list order, and whether the list goes on past them in the direction they were read. */
interface KeysetRead<T> {
  items: T[];
  more: boolean;
}

/**
 * The size of the last page of page paging. A walk back from the end starts
 * with it, so every page before it holds the same items as the page of that
 * number.
 */
export function lastPageSize(totalCount: number, limit: number): number {
  const pageCount = Math.max(1, Math.ceil(totalCount / limit));
  return totalCount - (pageCount - 1) * limit;
}

/** Up to `size` items from the boundary on (from the start without one), reading one more to see whether the list goes on. */
async function readForward<T>(source: PageSource<T>, filter: Filter, sort: Sort, size: number, after?: unknown[]): Promise<KeysetRead<T>> {
  const found = await source.find(filter, { sort, limit: size + 1, ...(after && { after }) });
  return { items: found.slice(0, size), more: found.length > size };
}

/** Up to `size` items up to the boundary (up to the end without one), read in the reversed sort and put back in list order. */
async function readBackward<T>(source: PageSource<T>, filter: Filter, sort: Sort, size: number, before?: unknown[]): Promise<KeysetRead<T>> {
  // A limit of 0 reads everything.
  if (size === 0) return { items: [], more: false };
  const found = await source.find(filter, { sort: reverseSort(sort), limit: size + 1, ...(before && { after: before }) });
  return { items: found.slice(0, size).reverse(), more: found.length > size };
}

async function readAt<T>(source: PageSource<T>, filter: Filter, window: KeysetWindow, totalCount: () => Promise<number>) {
  const { sort, limit, position } = window;
  switch (position.kind) {
    case 'first':
    case 'after': {
      const after = position.kind === 'after' ? position.values : undefined;
      const [read, count] = await Promise.all([readForward(source, filter, sort, limit, after), totalCount()]);
      return { read, count };
    }
    case 'before': {
      const [read, count] = await Promise.all([readBackward(source, filter, sort, limit, position.values), totalCount()]);
      return { read, count };
    }
    case 'last': {
      const count = await totalCount();
      return { read: await readBackward(source, filter, sort, lastPageSize(count, limit)), count };
    }
  }
}

/**
 * The pages beside a keyset page. A forward read knows from its extra item
 * whether a next page exists, and has a previous one whenever it started
 * after a record; a backward read the other way round, the last page having
 * no next. Past either end, the way back is the last page.
 */
function adjacentPages<T>(position: KeysetPosition, { items, more }: KeysetRead<T>, sort: Sort, totalCount: number): AdjacentPages {
  if (items.length === 0) return { next: null, previous: totalCount > 0 ? { kind: 'last' } : null };
  const forward = position.kind === 'first' || position.kind === 'after';
  const hasNext = forward ? more : position.kind === 'before';
  const hasPrevious = forward ? position.kind === 'after' : more;
  return {
    next: hasNext ? { kind: 'after', values: sortValues(items[items.length - 1], sort) } : null,
    previous: hasPrevious ? { kind: 'before', values: sortValues(items[0], sort) } : null,
  };
}

/** The page at a keyset position, with the count of all matches and the positions of the pages beside it. */
export async function findKeysetPage<T>(
  source: PageSource<T>,
  filter: Filter,
  window: KeysetWindow,
  totalCount: () => Promise<number>,
): Promise<Page<T>> {
  const { read, count } = await readAt(source, filter, window, totalCount);
  return { items: read.items, totalCount: count, adjacent: adjacentPages(window.position, read, window.sort, count) };
}
