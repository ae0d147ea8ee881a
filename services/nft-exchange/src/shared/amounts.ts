import { numericSortKey } from '@ledger-api/store';
import { z } from 'zod';

/** An amount in a search body: a decimal string of any size, compared by value. */
export const decimalAmount = (description: string) =>
  z
    .string()
    .max(9999)
    .regex(/^\d+$/, 'must only contain decimal digits')
    .meta({ description: `${description}; a decimal string, compared by value ("0100" equals "100")` });

/** Equality on an amount's numerically sortable key, so leading zeros do not matter. */
export const amountEquals = (amount: string) => ({ $eq: numericSortKey(amount) });
