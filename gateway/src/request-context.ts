import { ServerResponse, type IncomingMessage } from 'node:http';
import type { Express, Request, RequestHandler } from 'express';
import { normalizePath, REQUEST_ID_HEADER, requestIdFrom } from '@ledger-api/http-core';
import { isProbePath, requestLog, type Logger, type Metrics } from '@ledger-api/observability';
import type { HeaderPolicy } from './header-policy';
import { ROUTED_AREAS, isUnderMount } from './upstreams';

/** What keeps a proxied answer at the edge: its key, and the commit it must be rendered at to be kept. */
export interface EdgeCapture {
  key: string;
  commit: string;
  /** The generation of that commit: an answer kept for it alone holds while it is the newest. */
  generation: number;
}

/** The replicas a request was sent to. */
export interface Attempts {
  tried: string[];
  /** The last sending went out on a kept-alive connection, which the replica may have been closing. */
  reusedConnection: boolean;
  /** It was sent again, on a connection of its own, after a kept-alive one was reset. */
  sentAfresh: boolean;
  /** When the last sending went out (performance.now), for the wait for the service's answer. */
  sentAt: number;
}

/**
 * One request's state at the gateway, made as it arrives and carried with it (`req.context`)
 * through the edge, Express and the proxy: each step reads what an earlier one left here,
 * and nowhere else.
 */
export interface RequestContext {
  /** Correlates the gateway's and the service's log lines of one request. */
  readonly id: string;
  /** Its label in metrics and the log: a fixed route, the area, or `unmatched`; never the raw path. */
  route: string;
  /** A load balancer's health check, logged at debug. */
  probe: boolean;
  /** Answered from the edge cache, not by the service: its log line says so. */
  answeredAtEdge: boolean;
  /** The body, read whole before the request goes on (see bufferRequestBody). */
  body: Buffer | undefined;
  /** Set on an edge miss whose answer may be kept. */
  capture: EdgeCapture | undefined;
  /** Set once the proxy picked a replica. */
  attempts: Attempts | undefined;
  /** The rate limit's headers for the answer, once the request was counted. */
  rateLimitHeaders: ReadonlyArray<readonly [string, string]>;
  /**
   * Express routes the request and the gateway's own headers are not on its answer yet: they
   * are put there as its head goes out (see ownHeadersAtWriteHead), unless the proxy wrote
   * them with the service's.
   */
  ownHeadersDue: boolean;
}

declare module 'express-serve-static-core' {
  interface Request {
    context: RequestContext;
  }
}

/** The context of a request the gateway opened (for code that sees it as a bare IncomingMessage). */
export const contextOf = (req: IncomingMessage): RequestContext => (req as Request).context;

const FIXED_ROUTES = new Map([
  ['/livez', 'livez'],
  ['/api/openapi.json', 'openapi'],
]);

/** A small, fixed set of labels: raw paths would give metrics unbounded cardinality. */
function routeGroupOf(path: string): string {
  const fixed = FIXED_ROUTES.get(path);
  if (fixed) return fixed;
  const area = ROUTED_AREAS.find((listed) => isUnderMount(path, listed));
  return area?.service ?? 'unmatched';
}

export interface RequestPipelineOptions {
  logger: Logger;
  metrics: Metrics;
}

export interface RequestPipeline {
  /**
   * Every request first: its context, with its id (taken or made); and, once its response
   * is over, one log line (in the shape the services log too) and one duration sample.
   */
  open(req: IncomingMessage, res: ServerResponse): RequestContext;
  /** First of Express's middleware: the request's label, and the gateway's own headers due on its answer. */
  middleware: RequestHandler;
}

export function requestPipeline({ logger, metrics }: RequestPipelineOptions): RequestPipeline {
  const logRequest = requestLog(logger);
  const open = (req: IncomingMessage, res: ServerResponse): RequestContext => {
    const startedAt = performance.now();
    // Taken now: proxying rewrites req.url on its way to the service.
    const url = req.url ?? '/';
    const context: RequestContext = {
      id: requestIdFrom(req.headers[REQUEST_ID_HEADER]),
      route: 'unmatched',
      probe: false,
      answeredAtEdge: false,
      body: undefined,
      capture: undefined,
      attempts: undefined,
      rateLimitHeaders: [],
      ownHeadersDue: false,
    };
    (req as Request).context = context;
    // A response closes once: `on` spares the wrapper `once` would make for every request.
    res.on('close', () => recordAnswer({ req, res, context, url, milliseconds: performance.now() - startedAt }, metrics, logRequest));
    return context;
  };
  const middleware: RequestHandler = (req, res, next) => {
    const path = normalizePath(req.path);
    req.context.route = routeGroupOf(path);
    req.context.probe = isProbePath(path);
    req.context.ownHeadersDue = true;
    next();
  };
  return { open, middleware };
}

/**
 * Makes the answers of `app` (its response prototype) get the gateway's own headers when due
 * (see RequestContext.ownHeadersDue), as their head goes out.
 */
export function ownHeadersAtWriteHead(app: Express, headers: HeaderPolicy): void {
  // Every way of answering (end, write, flushHeaders, writeHead itself) writes the head through writeHead.
  const writeHead = ServerResponse.prototype.writeHead;
  app.response.writeHead = function writeHeadWithOwnHeaders(this: ServerResponse, ...args: unknown[]) {
    const context = contextOf(this.req);
    if (context?.ownHeadersDue) {
      context.ownHeadersDue = false;
      headers.setOwnHeadersUnlessSet(this, context.id, context.rateLimitHeaders);
    }
    return Reflect.apply(writeHead, this, args) as ServerResponse;
  } as unknown as typeof app.response.writeHead;
}

interface AnsweredRequest {
  req: IncomingMessage;
  res: ServerResponse;
  context: RequestContext;
  /** As the client sent it. */
  url: string;
  milliseconds: number;
}

/** Once a request is answered (or given up): its metrics and its log line. */
function recordAnswer({ req, res, context, url, milliseconds }: AnsweredRequest, metrics: Metrics, logRequest: ReturnType<typeof requestLog>): void {
  const finished = res.writableFinished;
  const method = req.method ?? 'GET';
  metrics.observeRequest({ method, route: context.route, status: finished ? String(res.statusCode) : 'aborted' }, milliseconds / 1e3);
  const line = {
    method,
    url,
    route: context.route,
    statusCode: res.statusCode,
    responseTime: Math.round(milliseconds * 10) / 10,
    reqId: context.id,
    userAgent: req.headers['user-agent'],
    ...(!finished && { aborted: true as const }),
    ...(context.answeredAtEdge && { edge: true as const }),
  };
  logRequest(line, context.probe);
}
