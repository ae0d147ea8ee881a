import type { Filter, Sort } from './types';

/**
 * Keyset windows: a read that starts after a boundary record's sort values
 * instead of skipping a count of records, so a deep page costs what the first
 * does and records added before the boundary never shift the next page.
 * Every list's sort ends on fields that name one record (ledger position,
 * group name, id), so a boundary's values name one place in the order.
 */

/** The fields of `sort` and `after` side by side; an `after` that does not fit the sort is a caller's bug. */
export function boundaryFields(sort: Sort, after: readonly unknown[]): [string, 1 | -1][] {
  const fields = Object.entries(sort);
  if (fields.length === 0 || fields.length !== after.length) {
    throw new Error(`A keyset boundary needs one value per sort field: ${after.length} values for ${JSON.stringify(sort)}`);
  }
  return fields;
}

/**
 * The MongoDB condition "strictly after the boundary in `sort`": the first
 * field bounded from the boundary on (which the sort's index turns into a
 * range scan), and, for each field, the documents that equal the boundary on
 * every earlier field and lie beyond it on that one.
 */
export function keysetFilter(sort: Sort, after: readonly unknown[]): Filter {
  const fields = boundaryFields(sort, after);
  const [leading, leadingDirection] = fields[0];
  const branches = fields.map(([field, direction], at) => {
    const equalBefore = fields.slice(0, at).map(([earlier], index) => [earlier, { $eq: after[index] }]);
    return { ...Object.fromEntries(equalBefore), [field]: { [direction === 1 ? '$gt' : '$lt']: after[at] } };
  });
  return { $and: [{ [leading]: { [leadingDirection === 1 ? '$gte' : '$lte']: after[0] } }, { $or: branches }] };
}

/** `filter` narrowed to the documents after the boundary, when there is one. */
export function withKeyset(filter: Filter, sort: Sort | undefined, after: readonly unknown[] | undefined): Filter {
  if (!after) return filter;
  const keyset = keysetFilter(sort ?? {}, after);
  return Object.keys(filter).length === 0 ? keyset : { $and: [filter, keyset] };
}

/** The same fields in the opposite order: reading it forwards reads the original backwards. */
export function reverseSort(sort: Sort): Sort {
  return Object.fromEntries(Object.entries(sort).map(([field, direction]) => [field, -direction])) as Sort;
}

function readPath(doc: unknown, path: string): unknown {
  let value = doc;
  for (const key of path.split('.')) {
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/**
 * A stored document's values of the fields of `sort`, the boundary a keyset
 * read starts from. Lists sort only on fields every document has; a missing
 * one would make the next read skip or repeat records, so it fails instead.
 */
export function sortValues(doc: unknown, sort: Sort): unknown[] {
  return Object.keys(sort).map((field) => {
    const value = readPath(doc, field);
    if (value === undefined || value === null) {
      const id = readPath(doc, '_id');
      throw new Error(`Keyset paging needs "${field}" on every document of the list; ${JSON.stringify(id)} has none`);
    }
    return value;
  });
}
