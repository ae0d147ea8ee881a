import type { Filter } from '../types';
import { isIndexKey, type IndexKey, type PostingIndex } from './posting-index';
import type { SortedView } from './sorted-view';
import type { StoredEntry } from './sorting';

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Each condition the filter puts on one field: its own members and those of its top-level `$and`. */
export function fieldConditions(filter: Filter): Array<[field: string, condition: unknown]> {
  const conditions: Array<[string, unknown]> = [];
  for (const [field, condition] of Object.entries(filter)) {
    if (field === '$and' && Array.isArray(condition)) {
      for (const part of condition) if (isPlainObject(part)) conditions.push(...fieldConditions(part));
    } else if (!field.startsWith('$')) {
      conditions.push([field, condition]);
    }
  }
  return conditions;
}

/**
 * The values a condition requires by plain equality (`value`, `{ $eq: value }`
 * or `{ $in: [values] }` of primitives): a document matches only if it holds
 * one of them. Null when the condition is anything else.
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

/**
 * The ids a filter asks for when it is nothing but an equality on `_id` with string
 * ids (`{ _id: id }`, `{ _id: { $eq: id } }`, `{ _id: { $in: [ids] } }`): the documents
 * with those ids are then exactly its matches. Null for any other filter.
 */
export function idLookup(filter: Filter): string[] | null {
  const fields = Object.keys(filter);
  if (fields.length !== 1 || fields[0] !== '_id') return null;
  const keys = equalityKeys(filter._id);
  return keys?.every((key) => typeof key === 'string') ? (keys as string[]) : null;
}

/** The values `{ $all: [primitives] }` requires all at once. */
function requiredKeys(condition: unknown): IndexKey[] | null {
  if (!isPlainObject(condition) || Object.keys(condition).length !== 1) return null;
  const operand = condition.$all;
  return Array.isArray(operand) && operand.length > 0 && operand.every(isIndexKey) ? operand : null;
}

interface Bound {
  value: IndexKey;
  inclusive: boolean;
}

const BOUND_OPERATORS: Record<string, (value: IndexKey) => { lower?: Bound; upper?: Bound }> = {
  $eq: (value) => ({ lower: { value, inclusive: true }, upper: { value, inclusive: true } }),
  $gt: (value) => ({ lower: { value, inclusive: false } }),
  $gte: (value) => ({ lower: { value, inclusive: true } }),
  $lt: (value) => ({ upper: { value, inclusive: false } }),
  $lte: (value) => ({ upper: { value, inclusive: true } }),
};

/** The bounds of a comparison (`{ $gt: 5, $lte: 9 }`), or null when it has another operator. */
function comparisonBounds(condition: unknown): { lower?: Bound; upper?: Bound } | null {
  if (!isPlainObject(condition) || Object.keys(condition).length === 0) return null;
  const bounds: { lower?: Bound; upper?: Bound } = {};
  for (const [operator, operand] of Object.entries(condition)) {
    const bound = Object.hasOwn(BOUND_OPERATORS, operator) && isIndexKey(operand) ? BOUND_OPERATORS[operator](operand) : null;
    if (!bound) return null;
    Object.assign(bounds, bound);
  }
  return bounds;
}

/**
 * Where a document may be found: all of them are among these, none elsewhere.
 * Listed entries are only gathered for the condition that turns out narrowest.
 */
export type Candidates =
  | { kind: 'range'; view: SortedView; from: number; to: number; exact: boolean }
  | { kind: 'entries'; size: number; entries: () => readonly StoredEntry[] };

/** What a collection offers for narrowing a filter down. */
export interface CandidateSources {
  byId(ids: readonly IndexKey[]): StoredEntry[];
  /** A view led by the field that can answer conditions on it. */
  viewLedBy(field: string): SortedView | undefined;
  /** The posting index that holds the field's values. */
  postingsOf(field: string): PostingIndex | undefined;
}

/**
 * The smallest set of candidates any one condition of the filter allows, or
 * null when no condition can use an index. `exact` when the filter is that
 * one equality condition on a view's leading field: the range is then the
 * matches themselves, in the view's order.
 */
export function narrowestCandidates(filter: Filter, sources: CandidateSources): Candidates | null {
  const conditions = fieldConditions(filter);
  const alone = conditions.length === 1 && Object.keys(filter).length === 1;
  let best: Candidates | null = null;
  for (const [field, condition] of conditions) {
    const candidates = conditionCandidates(field, condition, sources, alone);
    if (candidates && (!best || size(candidates) < size(best))) best = candidates;
  }
  return best;
}

function size(candidates: Candidates): number {
  return candidates.kind === 'range' ? candidates.to - candidates.from : candidates.size;
}

function conditionCandidates(field: string, condition: unknown, sources: CandidateSources, alone: boolean): Candidates | null {
  const keys = equalityKeys(condition);
  if (field === '_id' && keys) return { kind: 'entries', size: keys.length, entries: () => sources.byId(keys) };
  const view = sources.viewLedBy(field);
  if (view && keys?.length === 1) return { kind: 'range', view, ...equalRange(view, keys[0]), exact: alone };
  const bounds = keys ? null : comparisonBounds(condition);
  if (view && bounds) return { kind: 'range', view, ...boundedRange(view, bounds), exact: false };
  if (view && keys)
    return listed(keys.map((key) => equalRange(view, key)).map(({ from, to }) => ({ size: to - from, entries: () => view.slice(from, to) })));
  const postings = sources.postingsOf(field);
  const lists = (keys ?? requiredKeys(condition))?.map((key) => postings?.lookup(field, key) ?? []);
  if (!postings || !lists) return null;
  if (keys) return listed(lists.map((list) => ({ size: list.length, entries: () => list })));
  // Every required value is held by each match, so the shortest list of one of them holds them all.
  const shortest = lists.reduce((smallest, list) => (list.length < smallest.length ? list : smallest));
  return { kind: 'entries', size: shortest.length, entries: () => shortest };
}

/** The union of several lists of candidates, counted before any is gathered. */
function listed(parts: Array<{ size: number; entries: () => readonly StoredEntry[] }>): Candidates {
  const size = parts.reduce((total, part) => total + part.size, 0);
  const entries = () => (parts.length === 1 ? parts[0].entries() : [...new Set(parts.flatMap((part) => part.entries()))]);
  return { kind: 'entries', size, entries };
}

function equalRange(view: SortedView, key: IndexKey): { from: number; to: number } {
  return {
    from: view.partitionPointOfLeading((value) => view.order.compareLeading(value, key) < 0),
    to: view.partitionPointOfLeading((value) => view.order.compareLeading(value, key) <= 0),
  };
}

/** The positions holding values within the bounds (and, for mixed types, a few more the query drops). */
function boundedRange(view: SortedView, { lower, upper }: { lower?: Bound; upper?: Bound }): { from: number; to: number } {
  const ascending = view.order.directions[0] === 1;
  // Which bound starts the range depends on the direction the view holds its leading field in.
  const [first, last] = ascending ? [lower, upper] : [upper, lower];
  const from = first ? view.partitionPointOfLeading((value) => beyond(view.order.compareLeading(value, first.value), first.inclusive)) : 0;
  const to = last ? view.partitionPointOfLeading((value) => !beyond(-view.order.compareLeading(value, last.value), last.inclusive)) : view.length;
  return { from, to: Math.max(from, to) };
}

/** Whether a position whose leading value compares as `order` to the bound lies before the range. */
function beyond(order: number, inclusive: boolean): boolean {
  return inclusive ? order < 0 : order <= 0;
}
