import type { Doc, Filter } from '../types';

/** The values an equality index can hold; anything else is left to a full scan. */
export type IndexKey = string | number | boolean;

function isIndexKey(value: unknown): value is IndexKey {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Every primitive reachable through a dotted path, descending into arrays at
 * every step and at the leaf. This is a superset of what MongoDB's equality
 * match can see, which is all an index needs: candidates are re-checked by the
 * full query afterwards.
 */
function reachableKeys(value: unknown, path: readonly string[], into: Set<IndexKey>): void {
  if (Array.isArray(value)) {
    for (const element of value) reachableKeys(element, path, into);
    return;
  }
  if (path.length === 0) {
    if (isIndexKey(value)) into.add(value);
    return;
  }
  if (isPlainObject(value) && Object.hasOwn(value, path[0])) reachableKeys(value[path[0]], path.slice(1), into);
}

/**
 * The keys a top-level filter condition requires by plain equality (`value`,
 * `{ $eq: value }` or `{ $in: [values] }` of primitives), or null when the
 * condition is anything an equality index cannot answer.
 */
export function equalityKeys(condition: unknown): IndexKey[] | null {
  if (isIndexKey(condition)) return [condition];
  if (!isPlainObject(condition)) return null;
  const operators = Object.keys(condition);
  if (operators.length !== 1) return null;
  const operand = condition[operators[0]];
  if (operators[0] === '$eq' && isIndexKey(operand)) return [operand];
  if (operators[0] === '$in' && Array.isArray(operand) && operand.every(isIndexKey)) return operand;
  return null;
}

/** Field paths with positional segments (`tags.0`) match differently; they are never indexed. */
export function isIndexablePath(field: string): boolean {
  return field.split('.').every((segment) => segment !== '' && !/^\d+$/.test(segment));
}

/** Maps each primitive value found at one field path to the ids of the documents holding it. */
export class EqualityIndex {
  private readonly path: readonly string[];
  private readonly idsByKey = new Map<IndexKey, Set<string>>();

  constructor(readonly field: string) {
    this.path = field.split('.');
  }

  add(doc: Doc): void {
    for (const key of this.keysOf(doc)) {
      const ids = this.idsByKey.get(key);
      if (ids) ids.add(doc._id);
      else this.idsByKey.set(key, new Set([doc._id]));
    }
  }

  remove(doc: Doc): void {
    for (const key of this.keysOf(doc)) {
      const ids = this.idsByKey.get(key);
      if (!ids) continue;
      ids.delete(doc._id);
      if (ids.size === 0) this.idsByKey.delete(key);
    }
  }

  /** Ids of every document holding any of the keys; a superset of the matches. */
  idsFor(keys: readonly IndexKey[]): Set<string> {
    const ids = new Set<string>();
    for (const key of keys) for (const id of this.idsByKey.get(key) ?? []) ids.add(id);
    return ids;
  }

  private keysOf(doc: Doc): Set<IndexKey> {
    const keys = new Set<IndexKey>();
    reachableKeys(doc, this.path, keys);
    return keys;
  }
}

/**
 * The smallest candidate id set any indexed equality condition of the filter
 * allows, or null when no condition can use an index. `_id` is answered by the
 * primary map through `lookupIds`.
 */
export function narrowestCandidates(
  filter: Filter,
  indexes: ReadonlyMap<string, EqualityIndex>,
  lookupIds: (keys: readonly IndexKey[]) => Set<string>,
): Set<string> | null {
  let narrowest: Set<string> | null = null;
  for (const [field, condition] of Object.entries(filter)) {
    const index = indexes.get(field);
    if (field !== '_id' && !index) continue;
    const keys = equalityKeys(condition);
    if (!keys) continue;
    const ids = index ? index.idsFor(keys) : lookupIds(keys);
    if (!narrowest || ids.size < narrowest.size) narrowest = ids;
  }
  return narrowest;
}
