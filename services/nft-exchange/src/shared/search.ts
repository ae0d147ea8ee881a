import { numericSortKey, type Filter } from '@ledger-api/store';
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

/**
 * Combines single-field conditions with AND. Each condition is built from a
 * validated body member with an explicit operator, so no client value ever
 * becomes an operator itself.
 */
export function allOf(conditions: Filter[]): Filter {
  if (conditions.length === 0) return {};
  return conditions.length === 1 ? conditions[0] : { $and: conditions };
}
