/**
 * The store could not be reached or failed to answer. The message is fixed so a
 * driver's wording (hosts, credentials, internals) never reaches a client; the
 * original error stays on `cause` for logs.
 */
export class StoreUnavailableError extends Error {
  /** An outage is temporary (503, try again): the error says so itself, so whoever answers a request needs no list of store errors. */
  readonly status = 503;

  constructor(options?: { cause?: unknown }) {
    super('The data store is unavailable', options);
    this.name = 'StoreUnavailableError';
  }
}
