export interface PageKeyRequest {
  method: string;
  /** The path after the services' normalization (see normalizePath). */
  path: string;
  /** The query string as sent, without its `?`. */
  querystring: string;
  /** The request body's text; undefined for a request without one. */
  body?: string;
}

/**
 * The request part of a page cache key: two requests with the same one are answered
 * with the same page at one ledger generation. HEAD is GET without the body: both
 * are answered from the one page.
 */
export function pageRequestKey({ method, path, querystring, body }: PageKeyRequest): string {
  return `${method === 'HEAD' ? 'GET' : method} ${path}?${querystring} ${body ?? ''}`;
}
