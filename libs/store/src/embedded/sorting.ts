import { compare, resolve } from 'mingo/util';
import type { Doc, Sort } from '../types';

/** A stored document and the position it was first inserted at, the final tie-breaker. */
export interface StoredEntry {
  doc: Doc;
  seq: number;
}

/**
 * MongoDB's cross-type order (missing/null < numbers < strings < objects <
 * arrays < booleans) comes from mingo's comparator; same-type strings and
 * numbers, nearly every comparison here, take the cheap path. Strings compare
 * by UTF-16 code unit, as the API's ordering rules require.
 */
export function compareValues(left: unknown, right: unknown): number {
  const type = typeof left;
  if (type === typeof right && (type === 'string' || type === 'number' || type === 'boolean')) {
    return (left as string) < (right as string) ? -1 : (left as string) > (right as string) ? 1 : 0;
  }
  return compare(left, right);
}

/** Reads a sort field; MongoDB sorts a missing field as null. */
export function readSortValue(doc: Doc, field: string): unknown {
  const value = field.includes('.') ? resolve(doc, field) : Object.hasOwn(doc, field) ? doc[field] : undefined;
  return value ?? null;
}

/**
 * Sorts entries by the sort document's keys in order, then by insertion
 * order, so equal keys always come back in the same order. Values are read
 * once per entry rather than once per comparison.
 */
export function sortEntries(entries: readonly StoredEntry[], sort: Sort): StoredEntry[] {
  const fields = Object.keys(sort);
  const directions = fields.map((field) => sort[field]);
  const rows = entries.map((entry) => ({ entry, values: fields.map((field) => readSortValue(entry.doc, field)) }));
  rows.sort((a, b) => {
    for (let i = 0; i < fields.length; i++) {
      const order = compareValues(a.values[i], b.values[i]);
      if (order !== 0) return order * directions[i];
    }
    return a.entry.seq - b.entry.seq;
  });
  return rows.map((row) => row.entry);
}

export function hasSortKeys(sort: Sort | undefined): sort is Sort {
  return sort !== undefined && Object.keys(sort).length > 0;
}
