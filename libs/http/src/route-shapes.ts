import { z } from 'zod';
import { transactionIdParams } from './fields';
import { listQuerySchema, pagedResponse, type ListConfig } from './paging';
import { transformQuery } from './transform';

/**
 * The request and response schemas of the route shapes most list APIs repeat.
 * Spread into defineRoute beside the route's own handler, they keep a route's
 * validation, its OpenAPI entry and its paging links reading the same config.
 */

/** A paged list (GET) or search (POST, with the route's body) answering `item`s. */
export function pagedListShape<F extends z.ZodRawShape, I extends z.ZodType>(config: ListConfig<F>, item: I) {
  return { query: listQuerySchema(config), response: pagedResponse(item) };
}

/** One resource derived from a transaction, by its id, in resource shape or (transform=false) as the raw transaction. */
export function transactionByIdShape<I extends z.ZodType>(item: I) {
  return { params: transactionIdParams, query: transformQuery, response: z.object({ data: item }), errors: [404] };
}
