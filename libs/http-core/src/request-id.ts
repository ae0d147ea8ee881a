import { randomUUID } from 'node:crypto';

export const REQUEST_ID_HEADER = 'x-request-id';

// Client ids end up in log lines and upstream headers, so only short, plain tokens are kept.
const ACCEPTABLE_REQUEST_ID = /^[\w.:-]{1,128}$/;

/**
 * The id a request is logged and answered under: the client's X-Request-Id when it is a
 * short, plain token, else a new one. The gateway and the services take the same ids, so
 * a request keeps its id from the client through the gateway to the service.
 */
export function requestIdFrom(header: string | string[] | undefined): string {
  return typeof header === 'string' && ACCEPTABLE_REQUEST_ID.test(header) ? header : randomUUID();
}
