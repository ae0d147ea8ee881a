import { z } from 'zod';
import { booleanParam } from './fields';

/** `transform` of a list: routes over ledger records can answer the transactions they were built from instead. */
export const transformParam = () => booleanParam('Return resource shapes (true) or raw ledger transactions (false)').default(true);

/** Query of a by-id route that takes `transform`, and nothing else. */
export const transformQuery = z.strictObject({
  transform: booleanParam('Return the resource shape (true) or the raw ledger transaction (false)').default(true),
});
