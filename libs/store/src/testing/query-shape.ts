import type { Filter, Sort } from '../types';
import type { RecordedRead } from './recording-store';

/** Operators that pin a field to given values: an index walks only those keys. */
const EQUALITY_OPERATORS = new Set(['$eq', '$in', '$all', '$elemMatch']);

/** What an index needs to know of a query: which fields it pins, which it bounds, and its sort. */
export interface QueryShape {
  equality: Set<string>;
  range: Set<string>;
  sort: [string, 1 | -1][];
}

function isOperatorObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).some((key) => key.startsWith('$'));
}

function addConditions(filter: Filter, shape: QueryShape): void {
  for (const [field, condition] of Object.entries(filter)) {
    if (field === '$and') {
      for (const part of condition as Filter[]) addConditions(part, shape);
    } else if (field.startsWith('$')) {
      // Nothing issues $or or $nor; a new top-level operator must be thought about here first.
      throw new Error(`No index rule for the top-level operator ${field}`);
    } else if (!isOperatorObject(condition) || Object.keys(condition).some((operator) => EQUALITY_OPERATORS.has(operator))) {
      shape.equality.add(field);
    } else {
      shape.range.add(field);
    }
  }
}

/**
 * A keyset read's boundary condition (`after`) is a range on the sort's own
 * fields, which the index carrying the sort walks from the boundary on.
 */
export function queryShape(read: Pick<RecordedRead, 'filter' | 'sort' | 'after'>): QueryShape {
  const shape: QueryShape = { equality: new Set(), range: new Set(), sort: Object.entries(read.sort ?? {}) };
  addConditions(read.filter, shape);
  if (read.after) for (const [field] of shape.sort) if (!shape.equality.has(field)) shape.range.add(field);
  return shape;
}

/** The query document with every value replaced by `?`: its shape, for snapshots. */
function abstractFilter(value: unknown): unknown {
  if (Array.isArray(value)) {
    // Values collapse to one `?`; conditions (the members of `$and`) keep their shape.
    const conditions = value.filter((element) => typeof element === 'object' && element !== null);
    return conditions.length === 0 ? value.slice(0, 1).map(() => '?') : conditions.map(abstractFilter);
  }
  if (typeof value !== 'object' || value === null) return '?';
  return Object.fromEntries(Object.entries(value).map(([key, member]) => [key, abstractFilter(member)]));
}

/**
 * One line per read, e.g. `find assets {"ownerAddress":{"$eq":"?"}} sort {"blockHeight":1,"sequence":1}`;
 * a keyset read says `after ?` after its filter.
 */
export function describeRead(read: RecordedRead): string {
  const filter = JSON.stringify(abstractFilter(read.filter));
  return `${read.operation} ${read.collection} ${filter}${read.after ? ' after ?' : ''}${read.sort ? ` sort ${JSON.stringify(read.sort)}` : ''}`;
}

/** Normalizes the sort keys a read carries, for use as a map key. */
export function sortKey(sort: Sort | undefined): string {
  return JSON.stringify(Object.entries(sort ?? {}));
}
