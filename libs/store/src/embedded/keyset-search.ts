import { boundaryFields } from '../keyset';
import type { Doc, Sort } from '../types';
import type { OrderedEntries } from './types';
import { compareValues, readSortValue } from './sorting';

/** Where `doc` lies against the boundary in the sort: below 0 before it, 0 level with it, above 0 after it. */
function compareToBoundary(doc: Doc, fields: readonly [string, 1 | -1][], boundary: readonly unknown[]): number {
  for (let at = 0; at < fields.length; at++) {
    const [field, direction] = fields[at];
    const order = compareValues(readSortValue(doc, field), boundary[at] ?? null);
    if (order !== 0) return order * direction;
  }
  return 0;
}

/**
 * The position in `sorted` (entries in `sort` order, as sortEntries gives
 * them) of the first entry strictly after the boundary. A binary search with
 * the sort's own comparator, so a keyset read of an already sorted list costs
 * log n comparisons rather than a scan.
 */
export function firstIndexAfter(sorted: OrderedEntries, sort: Sort, boundary: readonly unknown[]): number {
  const fields = boundaryFields(sort, boundary);
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (compareToBoundary(sorted.at(middle)!.doc, fields, boundary) > 0) high = middle;
    else low = middle + 1;
  }
  return low;
}
