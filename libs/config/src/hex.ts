import { z } from 'zod';

/**
 * Fixed-length hex in any letter case, used lower-cased: a transaction id or a
 * public key, in a request or in a ledger event alike. The characters are checked
 * first, so `xyz` reads "must only contain hexadecimal characters", as clients of
 * the replaced system expect.
 */
export function hexText(length: number) {
  return z
    .string()
    .regex(/^[0-9a-fA-F]*$/, 'must only contain hexadecimal characters')
    .length(length)
    .transform((value) => value.toLowerCase());
}
