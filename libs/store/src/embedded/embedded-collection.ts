import { Query } from 'mingo';
import type { Doc, Filter, FindOptions, Sort } from '../types';
import { EqualityIndex, type IndexKey, isIndexablePath, narrowestCandidates } from './equality-index';
import { jsonKey, RecentValues } from './recent-values';
import { hasSortKeys, sortEntries, type StoredEntry } from './sorting';

/** Documents never carry code, so script operators such as `$where` stay off. */
const QUERY_OPTIONS = { scriptEnabled: false };

/** List routes use a handful of sort orders and filters between two blocks. */
const MAX_SORTED_VIEWS = 16;
const MAX_CACHED_QUERIES = 32;

/**
 * One collection's documents, held by reference: callers only ever see
 * copies, made by the store on the way in and out. Filters are evaluated by
 * mingo. Between writes, each sort order of the whole collection is computed
 * once, and a query's matches and count are kept, so the count that follows a
 * page, and the next pages, cost no second scan. Plain equality on an indexed
 * field narrows the scan.
 */
export class EmbeddedCollection {
  private readonly entries = new Map<string, StoredEntry>();
  private readonly indexes = new Map<string, EqualityIndex>();
  private inInsertionOrder: StoredEntry[] | null = null;
  private readonly sortedViews = new RecentValues<StoredEntry[]>(MAX_SORTED_VIEWS);
  private readonly matchLists = new RecentValues<StoredEntry[]>(MAX_CACHED_QUERIES);
  private readonly matchCounts = new RecentValues<number>(MAX_CACHED_QUERIES);
  private nextSeq = 0;

  get(id: string): Doc | undefined {
    return this.entries.get(id)?.doc;
  }

  /** Replaces in place, keeping the document's insertion position, or appends. */
  put(doc: Doc): void {
    const existing = this.entries.get(doc._id);
    for (const index of this.indexes.values()) {
      if (existing) index.remove(existing.doc);
      index.add(doc);
    }
    this.entries.set(doc._id, { doc, seq: existing ? existing.seq : this.nextSeq++ });
    this.forgetDerivedResults();
  }

  delete(id: string): void {
    const existing = this.entries.get(id);
    if (!existing) return;
    for (const index of this.indexes.values()) index.remove(existing.doc);
    this.entries.delete(id);
    this.forgetDerivedResults();
  }

  /** Indexes the field's values; positional paths are left to full scans. */
  addIndex(field: string): void {
    if (this.indexes.has(field) || !isIndexablePath(field)) return;
    const index = new EqualityIndex(field);
    for (const { doc } of this.entries.values()) index.add(doc);
    this.indexes.set(field, index);
  }

  /** The matching stored documents (not copies), sorted, skipped and limited. */
  find(filter: Filter, { sort, skip = 0, limit = 0 }: FindOptions = {}): Doc[] {
    // MongoDB reads a limit of 0 as "no limit".
    const end = limit > 0 ? skip + limit : undefined;
    return this.matches(filter, sort)
      .slice(skip, end)
      .map((entry) => entry.doc);
  }

  count(filter: Filter): number {
    const key = jsonKey(filter);
    const cached = key === null ? undefined : this.matchCounts.get(key);
    if (cached !== undefined) return cached;
    const query = compileFilter(filter);
    const candidates = this.indexedCandidates(filter) ?? this.allInInsertionOrder();
    const count = query ? candidates.reduce((matches, { doc }) => (query.test(doc) ? matches + 1 : matches), 0) : candidates.length;
    if (key !== null) this.matchCounts.set(key, count);
    return count;
  }

  private matches(filter: Filter, sort: Sort | undefined): StoredEntry[] {
    const query = compileFilter(filter);
    if (!query) return this.orderedCandidates(filter, sort);
    const filterKey = jsonKey(filter);
    const listKey = filterKey === null ? null : `${filterKey}\n${JSON.stringify(Object.entries(sort ?? {}))}`;
    const cached = listKey === null ? undefined : this.matchLists.get(listKey);
    if (cached) return cached;
    const matches = this.orderedCandidates(filter, sort).filter(({ doc }) => query.test(doc));
    if (filterKey !== null && listKey !== null) {
      this.matchLists.set(listKey, matches);
      this.matchCounts.set(filterKey, matches.length);
    }
    return matches;
  }

  private orderedCandidates(filter: Filter, sort: Sort | undefined): StoredEntry[] {
    const indexed = this.indexedCandidates(filter);
    if (!hasSortKeys(sort)) return indexed ?? this.allInInsertionOrder();
    return indexed ? sortEntries(indexed, sort) : this.sortedView(sort);
  }

  /** Entries an equality index says may match, in insertion order; null when no index applies. */
  private indexedCandidates(filter: Filter): StoredEntry[] | null {
    const ids = narrowestCandidates(filter, this.indexes, (keys) => this.existingIds(keys));
    if (!ids) return null;
    const entries: StoredEntry[] = [];
    for (const id of ids) {
      const entry = this.entries.get(id);
      if (entry) entries.push(entry);
    }
    return entries.sort((a, b) => a.seq - b.seq);
  }

  private existingIds(keys: readonly IndexKey[]): Set<string> {
    return new Set(keys.filter((key): key is string => typeof key === 'string' && this.entries.has(key)));
  }

  /** Map order is insertion order, since a replace keeps its key's position. */
  private allInInsertionOrder(): StoredEntry[] {
    this.inInsertionOrder ??= [...this.entries.values()];
    return this.inInsertionOrder;
  }

  private sortedView(sort: Sort): StoredEntry[] {
    const key = JSON.stringify(Object.entries(sort));
    let sorted = this.sortedViews.get(key);
    if (!sorted) {
      sorted = sortEntries(this.allInInsertionOrder(), sort);
      this.sortedViews.set(key, sorted);
    }
    return sorted;
  }

  private forgetDerivedResults(): void {
    this.inInsertionOrder = null;
    this.sortedViews.clear();
    this.matchLists.clear();
    this.matchCounts.clear();
  }
}

/** A mingo query for the filter, or null when it is empty and matches everything. */
function compileFilter(filter: Filter): Query | null {
  return Object.keys(filter).length === 0 ? null : new Query(filter, QUERY_OPTIONS);
}
