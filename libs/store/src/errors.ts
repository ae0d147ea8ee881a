/**
 * The store could not be reached or failed to answer. The message is fixed so a
 * driver's wording (hosts, credentials, internals) never reaches a client; the
 * original error stays on `cause` for logs.
 */
export class StoreUnavailableError extends Error {
  constructor(options?: { cause?: unknown }) {
    super('The data store is unavailable', options);
    this.name = 'StoreUnavailableError';
  }
}
