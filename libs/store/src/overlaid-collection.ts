import { Query } from 'mingo';
import { compareValues, readSortValue } from './embedded/sorting';
import { idLookup } from './embedded/query-plan';
import { withKeyset } from './keyset';
import type { Doc, Filter, FindOptions, ReadCollection, Sort } from './types';

/** A document an overlay replaces: as the collection holds it now, and as the overlay has it (null: absent). */
export interface Replaced<T extends Doc> {
  current: T | null;
  replacement: T | null;
}

/**
 * The documents an overlay replaces, by id: those among `ids`, or every one
 * (`ids` undefined). A document the overlay leaves alone is not in the map.
 */
export type Replacements<T extends Doc> = (ids: string[] | undefined) => Promise<Map<string, Replaced<T>>>;

/**
 * A collection read as if some of its documents were others (an earlier
 * state of them, say): every read gives exactly what the collection would
 * give if it held the replacements, with the same filters, sorts, keyset
 * boundaries, skips, limits and counts. The collection is queried as it is,
 * with the same query documents (so its indexes and caches serve them), for
 * as many more documents as it holds replaced ones that match; those are
 * dropped, the matching replacements merged in by the sort.
 */
export function overlaidCollection<T extends Doc>(base: ReadCollection<T>, replacements: Replacements<T>): ReadCollection<T> {
  const replacedFor = (filter: Filter) => replacements(idLookup(filter) ?? undefined);
  const find = async (filter: Filter, options: FindOptions = {}): Promise<T[]> => {
    const { sort, skip = 0, limit = 0, after } = options;
    const replaced = await replacedFor(filter);
    if (replaced.size === 0) return base.find(filter, options);
    const matches = matcher(withKeyset(filter, sort, after));
    const hidden = [...replaced.values()].filter(({ current }) => current !== null && matches(current)).length;
    const kept = await leftAlone(base, filter, { sort, after }, limit > 0 ? skip + limit : 0, replaced, hidden);
    const added = [...replaced.values()].flatMap(({ replacement }) => (replacement !== null && matches(replacement) ? [replacement] : []));
    const merged = sort ? sorted([...kept, ...added], sort) : [...kept, ...added];
    return merged.slice(skip, limit > 0 ? skip + limit : undefined);
  };
  return {
    find,
    async findById(id) {
      const replaced = (await replacements([id])).get(id);
      return replaced ? replaced.replacement : base.findById(id);
    },
    async findOne(filter, options = {}) {
      const [first] = await find(filter, { ...options, limit: 1 });
      return first ?? null;
    },
    async count(filter) {
      const replaced = await replacedFor(filter);
      const matches = matcher(filter);
      let difference = 0;
      for (const { current, replacement } of replaced.values()) {
        difference += Number(replacement !== null && matches(replacement)) - Number(current !== null && matches(current));
      }
      return (await base.count(filter)) + difference;
    },
    async estimatedCount() {
      const replaced = await replacements(undefined);
      let difference = 0;
      for (const { current, replacement } of replaced.values()) difference += Number(replacement !== null) - Number(current !== null);
      return (await base.estimatedCount()) + difference;
    },
  };
}

/**
 * The first `wanted` documents (all with 0) the collection holds that the overlay leaves
 * alone, in the sort, after `after`. Read in the sort, a window that held replaced ones is
 * followed by the next from its last document on, so only as many more are read as the
 * window held; without a sort to go on by (or a last document lacking a sort value), as
 * many more as the collection holds replaced ones that match.
 */
async function leftAlone<T extends Doc>(
  base: ReadCollection<T>,
  filter: Filter,
  { sort, after }: Pick<FindOptions, 'sort' | 'after'>,
  wanted: number,
  replaced: ReadonlyMap<string, unknown>,
  hidden: number,
): Promise<T[]> {
  const kept: T[] = [];
  let boundary = after;
  for (;;) {
    const asked = wanted > 0 ? wanted - kept.length : 0;
    const found = await base.find(filter, { sort, limit: asked, ...(boundary && { after: boundary }) });
    for (const doc of found) if (!replaced.has(doc._id)) kept.push(doc);
    if (asked === 0 || found.length < asked || kept.length >= wanted) return kept;
    const last = found[found.length - 1];
    const values = sort && Object.keys(sort).map((field) => readSortValue(last, field));
    if (!values || values.includes(null)) {
      const rest = await base.find(filter, { sort, limit: wanted - kept.length + hidden, ...(boundary && { after: boundary }), skip: found.length });
      return [...kept, ...rest.filter((doc) => !replaced.has(doc._id))];
    }
    boundary = values;
  }
}

function matcher(filter: Filter): (doc: Doc) => boolean {
  const query = new Query(filter);
  return (doc) => query.test(doc);
}

/** In the sort's order as the stores compare values; every list's sort ends on a field that names one record. */
function sorted<T extends Doc>(docs: T[], sort: Sort): T[] {
  const fields = Object.entries(sort);
  return docs.sort((a, b) => {
    for (const [field, direction] of fields) {
      const order = compareValues(readSortValue(a, field), readSortValue(b, field));
      if (order !== 0) return order * direction;
    }
    return 0;
  });
}
