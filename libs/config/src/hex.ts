import { z } from 'zod';

/** Which character codes are hex digits, in either letter case. */
const IS_HEX_DIGIT = new Uint8Array(128);
for (const digit of '0123456789abcdefABCDEF') IS_HEX_DIGIT[digit.charCodeAt(0)] = 1;

/**
 * `^[0-9a-fA-F]*$`, as zod reports it when it fails, tested by a loop over a
 * table: the expression's own test was the dearest part of reading the ids
 * and keys of every replayed ledger transaction.
 */
class HexDigits extends RegExp {
  constructor() {
    super('^[0-9a-fA-F]*$');
  }

  override test(value: string): boolean {
    const text = String(value);
    for (let at = 0; at < text.length; at++) {
      const code = text.charCodeAt(at);
      if (code >= 128 || IS_HEX_DIGIT[code] === 0) return false;
    }
    return true;
  }
}

// The test keeps no state (it never reads or moves lastIndex), so every schema can share one.
const HEX_DIGITS = new HexDigits();

/**
 * Fixed-length hex in any letter case, used lower-cased: a transaction id or a
 * public key, in a request or in a ledger event alike. The characters are checked
 * first, so `xyz` reads "must only contain hexadecimal characters", as clients of
 * the replaced system expect.
 */
export function hexText(length: number) {
  return z
    .string()
    .regex(HEX_DIGITS, 'must only contain hexadecimal characters')
    .length(length)
    .transform((value) => value.toLowerCase());
}
