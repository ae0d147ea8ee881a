import { SEARCH_ARRAY_KEY, SEARCH_FORM_FIELD, searchFieldName } from '@ledger-api/nft-read-model';
import type { Filter } from '@ledger-api/store';
import { isPlainObject, type JsonObject } from './json-body';

const join = (path: string, field: string) => (path === '' ? field : `${path}.${field}`);

/**
 * The AND of single-path conditions as one query document, with `$and` only
 * for paths asked again: the embedded store compiles a flat document several
 * times faster, which matters for bodies with thousands of members.
 */
function conjunction(conditions: Filter[]): Filter {
  const byPath: Filter = {};
  const repeated: Filter[] = [];
  for (const condition of conditions) {
    const [path] = Object.keys(condition);
    if (Object.hasOwn(byPath, path)) repeated.push(condition);
    else byPath[path] = condition[path];
  }
  return repeated.length === 0 ? byPath : { ...byPath, $and: repeated };
}

/** The conditions under which the search-form value at `path` contains `value`. */
function conditions(path: string, value: unknown): Filter[] {
  if (Array.isArray(value)) return arrayConditions(join(path, SEARCH_ARRAY_KEY), value);
  if (isPlainObject(value)) {
    // Only `{}` nested in a body gets here, asking for an object, which a wrapped array is not.
    if (Object.keys(value).length === 0) return [{ [path]: { $type: 'object' } }, { [join(path, SEARCH_ARRAY_KEY)]: { $exists: false } }];
    return memberConditions(path, value);
  }
  // `$eq: null` alone would also match a missing member.
  if (value === null) return [{ [path]: { $exists: true, $eq: null } }];
  return [{ [path]: { $eq: value } }];
}

/**
 * The wrapped array at `arrayPath` holds an element containing each given
 * element. Repeated elements ask nothing more. The scalars share one `$all`,
 * which compares them with the array's elements, all at one level; the rest
 * take one `$elemMatch` each.
 */
function arrayConditions(arrayPath: string, elements: unknown[]): Filter[] {
  // `$type` rather than `$exists`: inside `$elemMatch` the embedded store
  // resolves any path on a scalar element to the element itself.
  if (elements.length === 0) return [{ [arrayPath]: { $type: 'array' } }];
  const distinct = [...new Map(elements.map((element) => [JSON.stringify(element), element])).values()];
  const scalars = distinct.filter((element) => element !== null && typeof element !== 'object');
  const others = distinct.filter((element) => element === null || typeof element === 'object');
  return [
    ...(scalars.length > 0 ? [{ [arrayPath]: { $all: scalars } }] : []),
    ...others.map((element) => ({ [arrayPath]: { $elemMatch: elementCriteria(element) } })),
  ];
}

function memberConditions(path: string, value: JsonObject): Filter[] {
  return Object.entries(value).flatMap(([name, member]) => conditions(join(path, searchFieldName(name)), member));
}

/** `$elemMatch` criteria: the element contains `element`, a null, an array or an object. */
function elementCriteria(element: unknown): Filter {
  if (element === null) return { $eq: null };
  if (Array.isArray(element)) return conjunction(arrayConditions(SEARCH_ARRAY_KEY, element));
  // MongoDB tries member criteria on object elements only; the embedded store
  // tries them on scalar elements too, reading every path of a scalar as the
  // scalar itself. Requiring the array key to be absent keeps both to objects
  // that are not wrapped arrays.
  return conjunction([{ [SEARCH_ARRAY_KEY]: { $exists: false } }, ...memberConditions('', element as JsonObject)]);
}

/**
 * A query document matching assets or collections whose searchable value
 * contains `body` (docs/behaviour.md §5): objects when every given member
 * matches (extra members allowed), arrays when every given element is
 * contained in some element, scalars when equal, null only an existing null.
 * It reads the search form (see searchForm), where member names are escaped
 * and arrays wrapped, so every name in the body is data; values are only
 * ever compared with `$eq` or `$all`. `{}` matches all; a nested `{}` or `[]`
 * matches a member that is an object or an array.
 */
export function containmentFilter(body: JsonObject): Filter {
  return conjunction(memberConditions(SEARCH_FORM_FIELD, body));
}
