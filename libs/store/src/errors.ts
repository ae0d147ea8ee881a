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

/**
 * A read ran past the store's server-side time limit (MongoDB `maxTimeMS`).
 * 503 rather than 422: every query shape a route can issue has an index, so a
 * timeout says the store is under load or the request is unusually costly
 * right now (a broad search, a deep page), not that it is invalid; the same
 * request can succeed later, which is what 503 and Retry-After tell a client.
 * Unlike an outage it is worth saying so, and the message holds nothing from
 * the driver, so it is exposed to the client as written.
 */
export class QueryTimeoutError extends Error {
  readonly status = 503;
  /** The message is written for the client (see the http error middleware). */
  readonly expose = true;

  constructor(options?: { cause?: unknown }) {
    super('The query took too long; narrow it or try again', options);
    this.name = 'QueryTimeoutError';
  }
}
