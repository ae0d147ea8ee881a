import type { Doc, Sort } from '../types';
import { compareValues, readSortValue } from './sorting';

export type FieldReader = (doc: Doc) => unknown;

/**
 * Reads a sort field exactly as readSortValue does, but walks plain objects
 * itself: only a path that meets an array, a missing member or anything else
 * unusual goes through mingo's path resolution, which a comparison-heavy
 * caller cannot afford on every step. A top-level field, which every
 * tie-break on the ledger order reads, is one member read.
 */
export function sortFieldReader(field: string): FieldReader {
  const path = field.split('.');
  if (path.length === 1) return (doc) => (Object.hasOwn(doc, field) ? (doc[field] ?? null) : null);
  return (doc) => {
    let value: unknown = doc;
    for (const segment of path) {
      if (typeof value !== 'object' || value === null || Array.isArray(value) || !Object.hasOwn(value, segment)) {
        return readSortValue(doc, field);
      }
      value = (value as Record<string, unknown>)[segment];
    }
    return value === undefined || Array.isArray(value) ? readSortValue(doc, field) : (value ?? null);
  };
}

/** True when the field's value would be read through an array, where equality and order part ways. */
export function readsThroughArray(doc: Doc, path: readonly string[]): boolean {
  let value: unknown = doc;
  for (let i = 0; i < path.length; i++) {
    if (typeof value !== 'object' || value === null) return false;
    if (Array.isArray(value)) return true;
    // An inherited member is never an array, so there is no need to tell it from an own one.
    value = (value as Record<string, unknown>)[path[i]];
  }
  return Array.isArray(value);
}

/**
 * The order of a sort document over documents, on the sort's fields only:
 * entries that tie on every one of them come in insertion order (their
 * `seq`), as sortEntries sorts, which callers add.
 */
export class EntryOrder {
  readonly fields: readonly string[];
  readonly directions: readonly (1 | -1)[];
  readonly readers: readonly FieldReader[];
  /** Each field split into its path segments. */
  readonly paths: readonly (readonly string[])[];
  /** The document members the fields are read from. */
  readonly members: readonly string[];

  constructor(readonly sort: Sort) {
    this.fields = Object.keys(sort);
    this.paths = this.fields.map((field) => field.split('.'));
    this.members = [...new Set(this.paths.map(([member]) => member))];
    this.directions = this.fields.map((field) => sort[field]);
    this.readers = this.fields.map(sortFieldReader);
  }

  /** On fields [from, to). */
  compareKeys(a: Doc, b: Doc, from = 0, to = this.readers.length): number {
    for (let i = from; i < to; i++) {
      const order = compareValues(this.readers[i](a), this.readers[i](b));
      if (order !== 0) return order * this.directions[i];
    }
    return 0;
  }

  /** Where a value of the leading field lies against `value`, in this order's direction. */
  compareLeading(leading: unknown, value: unknown): number {
    return compareValues(leading, value) * this.directions[0];
  }
}

/** The sort document, as a map key. */
export function sortKey(sort: Sort): string {
  return JSON.stringify(Object.entries(sort));
}
