import { allOf, type Filter } from '@ledger-api/store';

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const join = (path: string, key: string) => (path === '' ? key : `${path}.${key}`);

/** The conditions under which the document at `path` contains `value`. */
function conditions(path: string, value: unknown): Filter[] {
  // An empty object or array inside the body asks for a member of that type.
  if (isPlainObject(value)) {
    if (Object.keys(value).length === 0) return [{ [path]: { $type: 'object' } }];
    return memberConditions(path, value);
  }
  if (Array.isArray(value)) {
    if (value.length === 0) return [{ [path]: { $type: 'array' } }];
    return value.map((element) => elementCondition(path, element));
  }
  // `$eq: null` alone would also match a missing member.
  if (value === null) return [{ [path]: { $exists: true, $eq: null } }];
  return [{ [path]: { $eq: value } }];
}

function memberConditions(path: string, value: Record<string, unknown>): Filter[] {
  return Object.entries(value).flatMap(([key, member]) => conditions(join(path, key), member));
}

/** Some element of the array at `path` contains `element`. */
function elementCondition(path: string, element: unknown): Filter {
  if (isPlainObject(element)) return { [path]: { $elemMatch: containmentFilter('', element) } };
  return { [path]: { $eq: element } };
}

/**
 * A query document matching documents whose member at `path` contains
 * `value`: objects when every given key matches (extra keys allowed), arrays
 * when every given element is present, scalars when equal. Values are only
 * ever compared with `$eq`, and member names have been checked by
 * safeJsonMembers, so the body cannot add an operator. `{}` matches all;
 * a nested `{}` or `[]` matches a member that is an object or an array.
 */
export function containmentFilter(path: string, value: Record<string, unknown>): Filter {
  return allOf(memberConditions(path, value));
}
