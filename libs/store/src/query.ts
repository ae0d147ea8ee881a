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
 * The regular expression of a LIKE pattern that contains `%`. A plain
 * `^a.*b.*c$` backtracks: with k wildcards a failing match tries O(n^k)
 * splits, and a handful of `%` freezes the process. Here each middle piece is
 * found at its leftmost occurrence inside a lookahead, whose match is final
 * (lookaheads are atomic in JavaScript and PCRE alike), and consumed through
 * the backreference (grouped, so a digit after it stays literal); only the
 * last piece may slide to the end of the value. Taking each piece at its
 * leftmost place loses no match, so a value is accepted exactly when LIKE
 * accepts it, in time proportional to the value's length times the pattern's,
 * in the embedded engine and in MongoDB alike.
 */
function wildcardRegex(pattern: string): string {
  const pieces = pattern.split(/%+/).map(escapeRegex);
  const first = pieces[0];
  const last = pieces[pieces.length - 1];
  const middle = pieces.slice(1, -1).map((piece, index) => `(?=([\\s\\S]*?${piece}))(?:\\${index + 1})`);
  const end = last === '' ? '' : `[\\s\\S]*${last}$`;
  return `^${first}${middle.join('')}${end}`;
}

/**
 * SQL LIKE with `%` as the only wildcard: `Test%` starts with "Test", `%Test%`
 * contains it; without `%` the value must match exactly.
 */
export function likeFilter(pattern: string, options: { caseInsensitive?: boolean } = {}): Record<string, unknown> {
  if (!pattern.includes('%')) {
    return options.caseInsensitive ? { $regex: `^${escapeRegex(pattern)}$`, $options: 'i' } : { $eq: pattern };
  }
  return { $regex: wildcardRegex(pattern), ...(options.caseInsensitive && { $options: 'i' }) };
}

/** Combines conditions with AND: `{}` for none, the condition itself for one. */
export function allOf(conditions: Filter[]): Filter {
  if (conditions.length === 0) return {};
  return conditions.length === 1 ? conditions[0] : { $and: conditions };
}
