import { isWildcardKey, wildcardPath } from '../indexes';
import type { CollectionSpec } from '../types';
import { queryShape, type QueryShape } from './query-shape';
import type { RecordedRead } from './recording-store';

/**
 * How an index serves a read, best first:
 * - `indexed`: equality fields first, then the sort in order or exactly
 *   reversed (MongoDB's ESR rule); range fields are checked after, on the index
 *   keys or the fetched documents. No blocking sort.
 * - `bounded-sort`: a selective equality prefix narrows the read to one key's
 *   documents (one owner's, one collection's), which are then sorted.
 * - `wildcard`: a wildcard index finds the matches of a search form condition,
 *   which are then sorted.
 * - `unindexed`: a collection scan or a blocking sort over the whole collection.
 */
export type Coverage = 'indexed' | 'bounded-sort' | 'wildcard' | 'unindexed';

export interface CoverageOptions {
  /**
   * Fields, per collection, with a handful of values (statuses, flags): an
   * equality on them alone narrows too little to sort the matches in memory,
   * so their reads must walk an index in sort order.
   */
  lowCardinality?: Record<string, string[]>;
}

/** MongoDB indexes `_id` in every collection. */
const ID_INDEX = ['_id', 1] as const;

/** The fields of `keys` from `start` carry `sort` exactly, or exactly reversed. */
function carriesSort(keys: [string, number][], start: number, sort: [string, number][]): boolean {
  if (sort.length === 0) return true;
  const run = keys.slice(start, start + sort.length);
  if (run.length < sort.length || run.some(([field], i) => field !== sort[i][0])) return false;
  const sameWay = run.every(([, direction], i) => direction === sort[i][1]);
  const reversed = run.every(([, direction], i) => direction === -sort[i][1]);
  return sameWay || reversed;
}

function coverageBy(keys: [string, number][], shape: QueryShape, selective: Set<string>): Coverage {
  let prefix = 0;
  while (prefix < keys.length && shape.equality.has(keys[prefix][0])) prefix += 1;
  const pinned = keys.slice(0, prefix).map(([field]) => field);
  // A sort field pinned by an equality is constant over the matches.
  const sort = shape.sort.filter(([field]) => !shape.equality.has(field));
  const sorted = carriesSort(keys, prefix, sort);
  if (selective.size > 0) {
    if (!pinned.some((field) => selective.has(field))) return 'unindexed';
    return sorted ? 'indexed' : 'bounded-sort';
  }
  if (!sorted) return 'unindexed';
  // Without a sort the index must at least narrow the read: by an equality, else a range.
  if (sort.length > 0) return 'indexed';
  if (shape.equality.size > 0) return prefix > 0 ? 'indexed' : 'unindexed';
  if (shape.range.size > 0) return shape.range.has(keys[0][0]) ? 'indexed' : 'unindexed';
  return 'indexed';
}

const RANK: Coverage[] = ['indexed', 'bounded-sort', 'wildcard', 'unindexed'];

/** The best coverage any index of the collection's spec gives the read. */
export function indexCoverage(read: RecordedRead, specs: CollectionSpec[], options: CoverageOptions = {}): Coverage {
  // The collection's own metadata answers an estimate.
  if (read.operation === 'estimatedCount') return 'indexed';
  const spec = specs.find((candidate) => candidate.name === read.collection);
  if (!spec) throw new Error(`No collection spec declares ${read.collection}`);
  const shape = queryShape(read);
  const lowCardinality = new Set(options.lowCardinality?.[read.collection] ?? []);
  const selective = new Set([...shape.equality].filter((field) => !lowCardinality.has(field)));
  const keyLists = [[ID_INDEX], ...spec.indexes.map((index) => Object.entries(index.key))] as [string, number][][];
  const found = keyLists.map((keys): Coverage => {
    const [first] = keys[0];
    if (!isWildcardKey(first)) return coverageBy(keys, shape, selective);
    const below = `${wildcardPath(first)}.`;
    return [...shape.equality, ...shape.range].some((field) => field.startsWith(below)) ? 'wildcard' : 'unindexed';
  });
  return RANK.find((coverage) => found.includes(coverage)) ?? 'unindexed';
}
