import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { Logger, Metrics } from '@ledger-api/observability';
import { AREAS } from './upstreams';

declare module 'express-serve-static-core' {
  interface Request {
    /** Correlates the gateway's and the service's log lines of one request. */
    id: string;
  }
}

export const REQUEST_ID_HEADER = 'x-request-id';

// Client ids end up in log lines and upstream headers, so only short, plain tokens are kept.
const ACCEPTABLE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

function requestIdFrom(header: string | string[] | undefined): string {
  return typeof header === 'string' && ACCEPTABLE_REQUEST_ID.test(header) ? header : randomUUID();
}

/** Takes or makes the request id, hands it to the upstream service and echoes it to the client. */
export const assignRequestId: RequestHandler = (req, res, next) => {
  req.id = requestIdFrom(req.headers[REQUEST_ID_HEADER]);
  req.headers[REQUEST_ID_HEADER] = req.id;
  res.setHeader('X-Request-Id', req.id);
  next();
};

const FIXED_ROUTES: Record<string, string> = {
  '/livez': 'livez',
  '/readyz': 'readyz',
  '/metrics': 'metrics',
  '/api/openapi.json': 'openapi',
};

/** A small, fixed set of labels: raw paths would give metrics unbounded cardinality. */
function routeGroupOf(path: string): string {
  const fixed = FIXED_ROUTES[path.replace(/\/+$/, '') || '/'];
  if (fixed) return fixed;
  const area = AREAS.find(({ mountPath }) => path === mountPath || path.startsWith(`${mountPath}/`));
  return area?.service ?? 'unmatched';
}

/** One JSON access log line and one duration sample per request, once the response is over. */
export function observeRequests(logger: Logger, metrics: Metrics): RequestHandler {
  return (req, res, next) => {
    const startedAt = process.hrtime.bigint();
    // Taken now: proxying rewrites req.url on its way to the service.
    const route = routeGroupOf(req.path);
    res.once('close', () => {
      const seconds = Number(process.hrtime.bigint() - startedAt) / 1e9;
      const status = res.writableFinished ? String(res.statusCode) : 'aborted';
      metrics.httpRequestDuration.observe({ method: req.method, route, status }, seconds);
      const line = { reqId: req.id, method: req.method, url: req.originalUrl, route, status, durationMs: Math.round(seconds * 1e3) };
      if (res.statusCode >= 500 || !res.writableFinished) logger.warn(line, 'request completed');
      else logger.info(line, 'request completed');
    });
    next();
  };
}
