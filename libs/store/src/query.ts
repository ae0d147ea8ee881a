import type { Filter } from './types';

/**
 * Helpers that turn client-supplied text into query documents. Client text is
 * always data: regex metacharacters are escaped and values are compared with
 * `$eq`, so no member of a request can become a query operator.
 */

export function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

/**
 * SQL LIKE with `%` as the only wildcard: `Test%` starts with "Test", `%Test%`
 * contains it; without `%` the value must match exactly.
 */
export function likeFilter(pattern: string, options: { caseInsensitive?: boolean } = {}): Record<string, unknown> {
  if (!pattern.includes('%')) {
    return options.caseInsensitive ? { $regex: `^${escapeRegex(pattern)}$`, $options: 'i' } : { $eq: pattern };
  }
  const body = pattern.split('%').map(escapeRegex).join('.*');
  return { $regex: `^${body}$`, ...(options.caseInsensitive && { $options: 'i' }) };
}

/** Combines conditions with AND: `{}` for none, the condition itself for one. */
export function allOf(conditions: Filter[]): Filter {
  if (conditions.length === 0) return {};
  return conditions.length === 1 ? conditions[0] : { $and: conditions };
}
