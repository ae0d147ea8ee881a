import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { components, paths } from './generated/schema';

export type { components, operations, paths } from './generated/schema';
export * from './live-events';

/** The API's named schemas, e.g. `Schemas['Asset']` or `Schemas['Error']`. */
export type Schemas = components['schemas'];

export type LedgerApiClient = Client<paths>;

/** The body of a 409 of a read at a past height: `head` when the height is not reached yet, `blockId` when another block is there, `first` when a walk's block was reverted. */
export type HeightConflict = components['responses']['HeightConflict']['content']['application/json'];

/** The body of a 410 of a read below the route's window: `earliestHeight`, and `first` for a cursor walk. */
export type HeightGone = components['responses']['HeightGone']['content']['application/json'];

/**
 * A client of the ledger query API whose paths, parameters, bodies and answers are typed
 * by the API's OpenAPI document. `baseUrl` is the gateway's root, e.g. `http://127.0.0.1:4003`:
 * the paths start with `/api`.
 */
export function createLedgerApiClient(baseUrl: string, options: Omit<ClientOptions, 'baseUrl'> = {}): LedgerApiClient {
  return createClient<paths>({ ...options, baseUrl });
}
