import { z } from 'zod';
import { transactionIdParams } from './fields';
import { transformQuery } from './transform';

/**
 * The request and response schemas of a route shape routes of their own repeat,
 * spread into defineRoute beside the route's own handler.
 */

/** One resource derived from a transaction, by its id, in resource shape or (transform=false) as the raw transaction. */
export function transactionByIdShape<I extends z.ZodType>(item: I) {
  return { params: transactionIdParams, query: transformQuery, response: z.object({ data: item }), errors: [404], history: 'point' as const };
}
