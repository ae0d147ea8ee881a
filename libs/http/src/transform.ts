import { booleanParam } from './fields';
import { withHistoryQuery } from './history-query';

/** `transform` of a list: routes over ledger records can answer the transactions they were built from instead. */
export const transformParam = () => booleanParam('Return resource shapes (true) or raw ledger transactions (false)').default(true);

/** Query of a by-id route that takes `transform`: that, and the keys of reads at a past height. */
export const transformQuery = withHistoryQuery({
  transform: booleanParam('Return the resource shape (true) or the raw ledger transaction (false)').default(true),
});

/** Query of a route that reads records and takes no `transform` (guardian, sub-resources): the keys of reads at a past height. */
export const pointReadQuery = withHistoryQuery({});
