/**
 * Amounts are decimal strings of unbounded size. Stored as text they would
 * sort "10" before "9", and as numbers they lose precision past 2^53, so each
 * one gets a key that sorts numerically as plain text: the digit count, padded
 * to a fixed width, followed by the digits without leading zeros.
 */
const LENGTH_WIDTH = 4;
/** The length prefixes of every amount a ledger holds, made once. */
const LENGTH_PREFIXES = Array.from({ length: 100 }, (_, length) => String(length).padStart(LENGTH_WIDTH, '0'));
const ZERO = 48;
const NINE = 57;

/** Every record holds several keys: each is made with a pass over its digits, and no regular expression. */
export function numericSortKey(decimal: string): string {
  let start = 0;
  // Leading zeros go, but a zero followed by no digit stays: "0" keeps its digit.
  while (start < decimal.length - 1 && decimal.charCodeAt(start) === ZERO && isDigit(decimal.charCodeAt(start + 1))) start += 1;
  const length = decimal.length - start;
  const key = (LENGTH_PREFIXES[length] ?? String(length).padStart(LENGTH_WIDTH, '0')) + (start === 0 ? decimal : decimal.slice(start));
  // V8 keeps a long concatenation as a pair of strings; reading a character joins them into one.
  key.charCodeAt(0);
  return key;
}

function isDigit(code: number): boolean {
  return code >= ZERO && code <= NINE;
}
