import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { components, paths } from './generated/schema';

export type { components, operations, paths } from './generated/schema';
export * from './live-events';

/** The API's named schemas, e.g. `Schemas['Asset']` or `Schemas['Error']`. */
export type Schemas = components['schemas'];

export type LedgerApiClient = Client<paths>;

/**
 * A client of the ledger query API whose paths, parameters, bodies and answers are typed
 * by the API's OpenAPI document. `baseUrl` is the gateway's root, e.g. `http://127.0.0.1:4003`:
 * the paths start with `/api`.
 */
export function createLedgerApiClient(baseUrl: string, options: Omit<ClientOptions, 'baseUrl'> = {}): LedgerApiClient {
  return createClient<paths>({ ...options, baseUrl });
}
