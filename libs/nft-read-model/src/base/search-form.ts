import { wildcardKey, type IndexSpec } from '@ledger-api/store';

/**
 * The search form of a JSON value, kept beside the value for containment
 * searches (docs/behaviour.md §5). A search body names members as data, but a
 * MongoDB path cannot: `.` splits it, a leading `$` makes an operator, dotted
 * paths step into arrays on their own and `$eq` matches an array holding the
 * value. The search form removes all four: every member name is escaped into
 * a safe field name, and every array is wrapped as `{ "[]": [...] }`, so a
 * query can only reach array elements through `$elemMatch` on the wrapper.
 * MongoDB and the embedded store then evaluate the same query identically.
 */

/** The stored field holding a document's search form. */
export const SEARCH_FORM_FIELD = 'searchForm';

/**
 * Searches name any member of the search form, so one wildcard index over all
 * of it serves them: each condition of a search is an equality (or `$all`,
 * `$elemMatch`, `$type`) on one path below it.
 */
export const SEARCH_FORM_INDEX: IndexSpec = { key: { [wildcardKey(SEARCH_FORM_FIELD)]: 1 } };

/** The member that holds a wrapped array; no escaped name can equal it. */
export const SEARCH_ARRAY_KEY = '[]';

const NAME_PREFIX = '~';
/**
 * The field names already made: a ledger's documents share a handful of
 * member names, each escaped once. Bounded, since member names are data.
 */
const FIELD_NAMES = new Map<string, string>();
const MAX_REMEMBERED_NAMES = 10_000;
const ESCAPES: Record<string, string> = { '%': '%25', '.': '%2E', '\0': '%00' };

/**
 * The field name of a member name: `~` plus the name with `%`, `.` and NUL
 * percent-escaped. It never starts with `$`, never holds `.` or NUL, is never
 * `__proto__` or another Object.prototype name, is never all digits (an array
 * index to MongoDB) and is never SEARCH_ARRAY_KEY; distinct names stay distinct.
 */
export function searchFieldName(name: string): string {
  let field = FIELD_NAMES.get(name);
  if (field === undefined) {
    field = NAME_PREFIX + name.replace(/[%.\0]/g, (character) => ESCAPES[character]);
    if (FIELD_NAMES.size < MAX_REMEMBERED_NAMES) FIELD_NAMES.set(name, field);
  }
  return field;
}

function searchValue(value: unknown): unknown {
  if (Array.isArray(value)) return { [SEARCH_ARRAY_KEY]: value.map(searchValue) };
  if (value !== null && typeof value === 'object') return searchForm(value as Record<string, unknown>);
  return value;
}

/** The search form of a JSON object. A field name is never `__proto__` (see searchFieldName), so assigning it makes an own member. */
export function searchForm(value: Record<string, unknown>): Record<string, unknown> {
  const form: Record<string, unknown> = {};
  for (const name of Object.keys(value)) form[searchFieldName(name)] = searchValue(value[name]);
  return form;
}

/** The collection fields a collection search looks into. */
export const COLLECTION_SEARCH_FIELDS = [
  'name',
  'description',
  'maximumSupply',
  'jsonSchema',
  'allowedIssuers',
  'metadata',
  'senderPublicKey',
] as const;

/** The search form of a collection's searchable fields; fields it lacks are left out. */
export function collectionSearchForm(collection: Partial<Record<(typeof COLLECTION_SEARCH_FIELDS)[number], unknown>>): Record<string, unknown> {
  const present = COLLECTION_SEARCH_FIELDS.filter((field) => collection[field] !== undefined);
  return searchForm(Object.fromEntries(present.map((field) => [field, collection[field]])));
}
