/**
 * Amounts are decimal strings of unbounded size. Stored as text they would
 * sort "10" before "9", and as numbers they lose precision past 2^53, so each
 * one gets a key that sorts numerically as plain text: the digit count, padded
 * to a fixed width, followed by the digits without leading zeros.
 */
const LENGTH_WIDTH = 4;

export function numericSortKey(decimal: string): string {
  const digits = decimal.replace(/^0+(?=\d)/, '');
  // Joined rather than concatenated: V8 keeps a concatenation as a pair of strings, and every stored record holds several keys.
  return [String(digits.length).padStart(LENGTH_WIDTH, '0'), digits].join('');
}

export function isDecimalString(value: unknown): value is string {
  return typeof value === 'string' && /^\d{1,9999}$/.test(value);
}
