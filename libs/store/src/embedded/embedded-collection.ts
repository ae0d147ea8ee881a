import { Query } from 'mingo';
import type { Doc, Filter, FindOptions, IndexSpec, Sort } from '../types';
import { CollectionIndexes } from './collection-indexes';
import { firstIndexAfter } from './keyset-search';
import type { IndexKey } from './posting-index';
import { idLookup, narrowestCandidates, type Candidates } from './query-plan';
import { jsonKey, RecentValues } from './recent-values';
import type { OrderedEntries } from './types';
import { hasSortKeys, sortEntries, type StoredEntry } from './sorting';

/** Documents never carry code, so script operators such as `$where` stay off. */
const QUERY_OPTIONS = { scriptEnabled: false };

/** List routes use a handful of filters between two blocks. */
const MAX_CACHED_QUERIES = 32;
/**
 * Candidates this many times fewer than the collection are sorted on their
 * own; more are picked out of a sorted view in one pass instead.
 */
const SORT_ON_THEIR_OWN_BELOW = 16;

/**
 * One collection's documents, held by reference and never changed (a write
 * replaces a document whole), so the store may share them with the writer
 * (EmbeddedEngine) and copies them for everyone else. Filters are evaluated by
 * mingo. Indexes (CollectionIndexes) follow every write: a sort with an index
 * reads a window of its view, an equality or range on an index's leading
 * field or a wildcard-indexed path narrows a filter to candidates, and an
 * equality alone is answered, count included, from positions in a view.
 * Between writes, the matches and count of other filters are kept, so the
 * count that follows a page, and the next pages, cost no second scan.
 */
export class EmbeddedCollection {
  private readonly entries = new Map<string, StoredEntry>();
  private readonly indexes = new CollectionIndexes(() => this.entries.values());
  private inInsertionOrder: StoredEntry[] | null = null;
  private readonly matchLists = new RecentValues<OrderedEntries>(MAX_CACHED_QUERIES);
  private readonly matchCounts = new RecentValues<number>(MAX_CACHED_QUERIES);
  private nextSeq = 0;

  get(id: string): Doc | undefined {
    return this.entries.get(id)?.doc;
  }

  /** Replaces in place, keeping the document's insertion position, or appends. */
  put(doc: Doc): void {
    const existing = this.entries.get(doc._id);
    if (existing) {
      this.indexes.replaced(existing, doc);
    } else {
      const entry = { doc, seq: this.nextSeq++ };
      this.entries.set(doc._id, entry);
      this.indexes.inserted(entry);
      this.inInsertionOrder = null;
    }
    this.forgetCachedMatches();
  }

  delete(id: string): void {
    const existing = this.entries.get(id);
    if (!existing) return;
    this.indexes.removed(existing);
    this.entries.delete(id);
    this.inInsertionOrder = null;
    this.forgetCachedMatches();
  }

  /** While a replay nobody reads catches up, the indexes leave their order to be restored at once (see SortedView.deferOrder). */
  deferOrder(): void {
    this.indexes.deferOrder();
  }

  restoreOrder(): void {
    this.indexes.restoreOrder();
  }

  /** Indexes the key's order, or with a wildcard key every value below its path; positional paths are left to scans. */
  addIndex(key: IndexSpec['key']): void {
    this.indexes.addIndex(key);
  }

  /** The matching stored documents (not copies), sorted, from after the keyset boundary if any, skipped and limited. */
  find(filter: Filter, { sort, skip = 0, limit = 0, after }: FindOptions = {}): Doc[] {
    const matches = this.matches(filter, sort);
    const start = skip + (after ? firstIndexAfter(matches, sort ?? {}, after) : 0);
    // MongoDB reads a limit of 0 as "no limit".
    const end = limit > 0 ? start + limit : undefined;
    return matches.slice(start, end).map((entry) => entry.doc);
  }

  count(filter: Filter): number {
    const ids = idLookup(filter);
    if (ids) return this.byIds(ids).length;
    if (matchesAll(filter)) return this.entries.size;
    const key = jsonKey(filter);
    const cached = key === null ? undefined : this.matchCounts.get(key);
    if (cached !== undefined) return cached;
    const candidates = this.candidates(filter);
    if (candidates?.kind === 'range' && candidates.exact) return candidates.to - candidates.from;
    const count = this.verified(filter, candidates).length;
    if (key !== null) this.matchCounts.set(key, count);
    return count;
  }

  private matches(filter: Filter, sort: Sort | undefined): OrderedEntries {
    // A lookup by ids is answered from the documents by id: nothing to evaluate, nor to keep
    // among the recent matches, where a lookup of a new set of ids every time would push out the lists.
    const ids = idLookup(filter);
    if (ids) return this.inOrder(this.byIds(ids), sort);
    const served = matchesAll(filter) ? this.allInOrder(sort) : undefined;
    if (served) return served;
    const filterKey = jsonKey(filter);
    const listKey = filterKey === null ? null : `${filterKey}\n${JSON.stringify(Object.entries(sort ?? {}))}`;
    const cached = listKey === null ? undefined : this.matchLists.get(listKey);
    if (cached) return cached;
    const candidates = this.candidates(filter);
    const fromRange =
      candidates?.kind === 'range' && candidates.exact && this.indexes.rangeInOrder(candidates.view, candidates.from, candidates.to, sort ?? {});
    const matches = fromRange || this.inOrder(this.verified(filter, candidates), sort);
    if (filterKey !== null && listKey !== null) {
      this.matchLists.set(listKey, matches);
      this.matchCounts.set(filterKey, matches.length);
    }
    return matches;
  }

  private candidates(filter: Filter): Candidates | null {
    return narrowestCandidates(filter, {
      byId: (ids) => this.byIds(ids),
      viewLedBy: (field) => this.indexes.viewLedBy(field),
      postingsOf: (field) => this.indexes.postingsOf(field),
    });
  }

  /** The entries of the ids, each once however often it is asked for. */
  private byIds(ids: readonly IndexKey[]): StoredEntry[] {
    return [...new Set(ids)].flatMap((id) => this.entries.get(String(id)) ?? []);
  }

  /** The candidates (every entry without any) that match the filter, in no particular order. */
  private verified(filter: Filter, candidates: Candidates | null): StoredEntry[] {
    if (candidates?.kind === 'range') {
      const entries = candidates.view.slice(candidates.from, candidates.to);
      // An exact range is the matches themselves: no query to compile, which costs more than reading a short range.
      const query = candidates.exact ? null : compileFilter(filter);
      return query ? entries.filter(({ doc }) => query.test(doc)) : entries;
    }
    const query = compileFilter(filter);
    const entries = candidates ? candidates.entries() : this.allInInsertionOrder();
    return entries.filter(({ doc }) => !query || query.test(doc));
  }

  /**
   * Entries in the sort's order: few are sorted on their own, many picked out
   * of the sort's view in one pass. Without a view in order (mingo orders a
   * value level with an array holding it) they are sorted from insertion order.
   */
  private inOrder(entries: StoredEntry[], sort: Sort | undefined): OrderedEntries {
    entries.sort((a, b) => a.seq - b.seq);
    if (!hasSortKeys(sort)) return entries;
    const view = entries.length * SORT_ON_THEIR_OWN_BELOW < this.entries.size ? undefined : this.indexes.inOrder(sort);
    if (!view) return sortEntries(entries, sort);
    const wanted = new Set(entries);
    return view.slice().filter((entry) => wanted.has(entry));
  }

  /** Every entry in the sort's order, when an index holds it so (and insertion order without a sort). */
  private allInOrder(sort: Sort | undefined): OrderedEntries | undefined {
    return hasSortKeys(sort) ? this.indexes.inOrder(sort) : this.allInInsertionOrder();
  }

  /** Map order is insertion order, since a replace keeps its key's position. */
  private allInInsertionOrder(): StoredEntry[] {
    this.inInsertionOrder ??= [...this.entries.values()];
    return this.inInsertionOrder;
  }

  private forgetCachedMatches(): void {
    this.matchLists.clear();
    this.matchCounts.clear();
  }
}

/** Whether the filter is empty and matches everything. */
function matchesAll(filter: Filter): boolean {
  return Object.keys(filter).length === 0;
}

/** A mingo query for the filter, or null when it is empty and matches everything. */
function compileFilter(filter: Filter): Query | null {
  return matchesAll(filter) ? null : new Query(filter, QUERY_OPTIONS);
}
