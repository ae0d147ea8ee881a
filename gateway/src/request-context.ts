import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import { REQUEST_ID_HEADER, requestIdFrom } from '@ledger-api/http-core';
import { isProbePath, logRequest, type Logger, type Metrics } from '@ledger-api/observability';
import { AREAS, isUnderMount } from './upstreams';

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
  const area = AREAS.find((listed) => isUnderMount(path, listed));
  return area?.service ?? 'unmatched';
}

const answeredAtEdge = new WeakSet<ServerResponse>();

/** Marks an answer as sent from the edge cache, not by the service: its log line says so. */
export function markEdgeAnswer(res: ServerResponse): void {
  answeredAtEdge.add(res);
}

export interface RequestContextOptions {
  logger: Logger;
  metrics: Metrics;
  /** Headers every answer carries, worked out once at start. */
  fixedHeaders: ReadonlyArray<readonly [string, string]>;
}

export interface RequestContext {
  /** For requests Express routes: the id and the fixed headers set on the answer. */
  middleware: RequestHandler;
  /**
   * For an answer the gateway sends before Express (an edge hit, whose route is its area):
   * the id, taken or made, which the caller sends with the fixed headers.
   */
  begin(req: IncomingMessage, res: ServerResponse, route: string): string;
  fixedHeaders: ReadonlyArray<readonly [string, string]>;
}

/**
 * What every request gets first: its id, taken or made, handed to the service and
 * echoed; the gateway's fixed headers; and, once its response is over, one log
 * line (in the shape the services log too) and one duration sample.
 */
export function requestContext({ logger, metrics, fixedHeaders }: RequestContextOptions): RequestContext {
  const begin = (req: IncomingMessage, res: ServerResponse, route: string, probe = false): string => {
    const startedAt = performance.now();
    // Taken now: proxying rewrites req.url on its way to the service.
    const url = req.url ?? '/';
    const id = requestIdFrom(req.headers[REQUEST_ID_HEADER]);
    req.headers[REQUEST_ID_HEADER] = id;
    res.once('close', () => {
      const milliseconds = performance.now() - startedAt;
      const finished = res.writableFinished;
      metrics.observeRequest({ method: req.method ?? 'GET', route, status: finished ? String(res.statusCode) : 'aborted' }, milliseconds / 1e3);
      const line = {
        method: req.method ?? 'GET',
        url,
        route,
        statusCode: res.statusCode,
        responseTime: Math.round(milliseconds * 10) / 10,
        reqId: id,
        userAgent: req.headers['user-agent'],
        ...(!finished && { aborted: true as const }),
        ...(answeredAtEdge.has(res) && { edge: true as const }),
      };
      logRequest(logger, line, probe);
    });
    return id;
  };
  const middleware: RequestHandler = (req, res, next) => {
    const path = req.path.replace(/(?<=.)\/+$/, '');
    req.id = begin(req, res, routeGroupOf(path), isProbePath(path));
    res.setHeader('X-Request-Id', req.id);
    for (const [name, value] of fixedHeaders) res.setHeader(name, value);
    next();
  };
  return { middleware, begin, fixedHeaders };
}
