import type { RequestHandler } from 'express';
import { REQUEST_ID_HEADER, requestIdFrom } from '@ledger-api/http-core';
import { isProbePath, logRequest, type Logger, type Metrics } from '@ledger-api/observability';
import { AREAS } from './upstreams';

declare module 'express-serve-static-core' {
  interface Request {
    /** Correlates the gateway's and the service's log lines of one request. */
    id: string;
  }
}

const FIXED_ROUTES: Record<string, string> = {
  '/livez': 'livez',
  '/api/openapi.json': 'openapi',
};

/** A small, fixed set of labels: raw paths would give metrics unbounded cardinality. */
function routeGroupOf(path: string): string {
  const fixed = FIXED_ROUTES[path];
  if (fixed) return fixed;
  const area = AREAS.find(({ mountPath }) => path === mountPath || path.startsWith(`${mountPath}/`));
  return area?.service ?? 'unmatched';
}

export interface RequestContextOptions {
  logger: Logger;
  metrics: Metrics;
  /** Headers every answer carries, worked out once at start. */
  fixedHeaders: ReadonlyArray<readonly [string, string]>;
}

/**
 * What every request gets first: its id, taken or made, handed to the service and
 * echoed; the gateway's fixed headers; and, once its response is over, one log
 * line (in the shape the services log too) and one duration sample.
 */
export function requestContext({ logger, metrics, fixedHeaders }: RequestContextOptions): RequestHandler {
  return (req, res, next) => {
    const startedAt = performance.now();
    req.id = requestIdFrom(req.headers[REQUEST_ID_HEADER]);
    req.headers[REQUEST_ID_HEADER] = req.id;
    res.setHeader('X-Request-Id', req.id);
    for (const [name, value] of fixedHeaders) res.setHeader(name, value);
    // Taken now: proxying rewrites req.url on its way to the service.
    const path = req.path.replace(/(?<=.)\/+$/, '');
    const route = routeGroupOf(path);
    res.once('close', () => {
      const milliseconds = performance.now() - startedAt;
      const finished = res.writableFinished;
      metrics.observeRequest({ method: req.method, route, status: finished ? String(res.statusCode) : 'aborted' }, milliseconds / 1e3);
      logRequest(
        logger,
        {
          method: req.method,
          url: req.originalUrl,
          route,
          statusCode: res.statusCode,
          responseTime: Math.round(milliseconds * 10) / 10,
          reqId: req.id,
          userAgent: req.headers['user-agent'],
          ...(!finished && { aborted: true }),
          // Answered by the gateway's edge cache, not by the service.
          ...(res.locals.edge === true && { edge: true }),
        },
        isProbePath(path),
      );
    });
    next();
  };
}
