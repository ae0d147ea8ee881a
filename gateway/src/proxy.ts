import type { Agent, ClientRequest, IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { RequestHandler } from 'express';
import { createProxyMiddleware, debugProxyErrorsPlugin, type Plugin } from 'http-proxy-middleware';
import type { Logger, Metrics } from '@ledger-api/observability';
import { sendError } from './errors';
import { prepareServiceRequest, type HeaderPolicy } from './header-policy';
import { contextOf, type Attempts } from './request-context';
import type { UpstreamPool } from './upstream-pool';
import type { RoutedArea, ServiceName } from './upstreams';

export type UpstreamFailure = 'unavailable' | 'timeout' | 'bad_response';

/** Labelled by `upstream` (the service) and `reason` (an UpstreamFailure). */
export type UpstreamErrorCounter = ReturnType<Metrics['counter']>;

/** Labelled by `upstream` (the service): requests sent again, to another replica of it or on a new connection. */
export type UpstreamRetryCounter = ReturnType<Metrics['counter']>;

/** Labelled by `area` (the service). */
export type UpstreamDurationHistogram = ReturnType<Metrics['histogram']>;

export interface AreaProxyOptions {
  area: RoutedArea;
  /** The area's replicas. */
  pool: UpstreamPool;
  timeoutMs: number;
  /** Shared keep-alive agent: without one every proxied request opens a new connection. */
  agent: Agent;
  logger: Logger;
  /** Makes the head of each proxied answer. */
  headers: HeaderPolicy;
  upstreamErrors: UpstreamErrorCounter;
  upstreamRetries: UpstreamRetryCounter;
  /** Time from sending the request to the service to the head of its answer. */
  upstreamDuration: UpstreamDurationHistogram;
  /** Sees each answer's head before it goes on (the edge cache keeps answers through it). */
  onAnswer?(proxyRes: IncomingMessage, req: IncomingMessage): void;
}

class UpstreamTimeoutError extends Error {
  readonly code = 'ETIMEDOUT';
}

// No connection was made: the service received nothing of the request.
const NOT_CONNECTED_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EHOSTDOWN']);
// A connection reset before any answer means the service went away mid-request (it
// crashed or was killed): the client should come back, as with a refused connection.
const UNREACHABLE_CODES = new Set([...NOT_CONNECTED_CODES, 'ECONNRESET', 'EPIPE']);
// Sent again to another replica after a reset: asking twice cannot change anything.
const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD']);

function classifyUpstreamError(error: Error): UpstreamFailure {
  if (error instanceof UpstreamTimeoutError) return 'timeout';
  const code = (error as NodeJS.ErrnoException).code;
  return code !== undefined && UNREACHABLE_CODES.has(code) ? 'unavailable' : 'bad_response';
}

function failureResponse(service: ServiceName, failure: UpstreamFailure): { status: number; message: string } {
  switch (failure) {
    case 'unavailable':
      return { status: 503, message: `${service} service is not available` };
    case 'timeout':
      return { status: 503, message: `${service} service did not answer in time` };
    case 'bad_response':
      return { status: 502, message: `${service} service sent no valid answer` };
  }
}

/** The client closed the connection before its answer was complete. */
const clientLeft = (res: ServerResponse) => res.destroyed && !res.writableFinished;

/**
 * The whole upstream exchange, connecting included, gets one deadline, so a client
 * waits at most timeoutMs whatever state the service is in; a client that leaves
 * frees the upstream connection at once instead of waiting for an answer nobody reads.
 */
function boundExchange(proxyReq: ClientRequest, res: ServerResponse, timeoutMs: number): void {
  const timer = setTimeout(() => proxyReq.destroy(new UpstreamTimeoutError(`no answer within ${timeoutMs} ms`)), timeoutMs);
  // Closes once, as does a service's answer below: `on` spares the wrapper `once` makes per request.
  res.on('close', () => {
    clearTimeout(timer);
    if (clientLeft(res)) proxyReq.destroy();
  });
}

interface NextAttempt {
  baseUrl: string;
  /** On a new connection, not one of the pool's: those to the same address may be closing too. */
  afresh: boolean;
}

function firstAttempt(req: IncomingMessage, baseUrl: string): void {
  contextOf(req).attempts = {
    tried: [baseUrl],
    reusedConnection: false,
    sentAfresh: false,
    sentAt: performance.now(),
  };
}

/**
 * After a reset on a kept-alive connection (the replica closed it as the request went out: it
 * was stopping, or the connection had idled out), the same address once more on a connection
 * of its own. Behind an address that balances connections (a Kubernetes Service) that reaches
 * whichever replica serves now; for a replica of its own, whether it still serves.
 */
function afreshAfterReset(attempts: Attempts): NextAttempt | undefined {
  if (!attempts.reusedConnection || attempts.sentAfresh) return undefined;
  attempts.sentAfresh = true;
  return { baseUrl: attempts.tried[attempts.tried.length - 1], afresh: true };
}

/**
 * The replica to send a failed request to next: after a refused connection (nothing was sent),
 * or, for a GET or HEAD, after a reset before any answer (another replica, or else the same
 * address on a new connection when a kept-alive one was reset); undefined when it must fail here.
 */
function nextAttempt(error: Error, req: IncomingMessage, res: ServerResponse, pool: UpstreamPool): NextAttempt | undefined {
  const { attempts } = contextOf(req);
  if (!attempts || res.headersSent) return undefined;
  const code = (error as NodeJS.ErrnoException).code ?? '';
  const notSent = NOT_CONNECTED_CODES.has(code);
  if (notSent) pool.setAsideUntilServing(attempts.tried[attempts.tried.length - 1]);
  if (!notSent && !(UNREACHABLE_CODES.has(code) && IDEMPOTENT_METHODS.has(req.method ?? ''))) return undefined;
  const another = pool.pick(attempts.tried);
  const next = another === undefined ? afreshAfterReset(attempts) : { baseUrl: another, afresh: false };
  if (next === undefined) return undefined;
  attempts.tried.push(next.baseUrl);
  return next;
}

function upstreamEvents(options: AreaProxyOptions, targets: ReadonlyMap<string, URL>): Plugin<IncomingMessage, ServerResponse> {
  const onRequest = onUpstreamRequest(options);
  const onAnswer = onUpstreamAnswer(options);
  return (proxyServer, proxyOptions) => {
    proxyServer.on('proxyReq', onRequest);
    proxyServer.on('proxyRes', onAnswer);
    proxyServer.on(
      'error',
      onUpstreamError(options, (req, res, next) =>
        // Without an agent http-proxy opens a connection for this request alone.
        proxyServer.web(req, res, { ...proxyOptions, target: targets.get(next.baseUrl), ...(next.afresh && { agent: false }) }),
      ),
    );
  };
}

/** As a request goes out: its connection noted, its sending time kept, its exchange bounded, the body already read sent. */
function onUpstreamRequest(options: AreaProxyOptions) {
  return (proxyReq: ClientRequest, req: IncomingMessage, res: ServerResponse): void => {
    const { attempts, body } = contextOf(req);
    if (attempts) {
      attempts.reusedConnection = proxyReq.reusedSocket;
      attempts.sentAt = performance.now();
    }
    boundExchange(proxyReq, res, options.timeoutMs);
    // The request stream itself was spent reading the body.
    if (body) proxyReq.end(body);
  };
}

/**
 * As a service's answer arrives: its wait timed, its replica set aside when it cannot serve,
 * its head seen, then written at once with the gateway's own headers, and its body passed on.
 */
function onUpstreamAnswer(options: AreaProxyOptions) {
  const upstreamDuration = options.upstreamDuration.labels({ area: options.area.service });
  return (proxyRes: IncomingMessage, req: IncomingMessage, res: ServerResponse): void => {
    const context = contextOf(req);
    const { attempts } = context;
    if (attempts) {
      upstreamDuration.observe((performance.now() - attempts.sentAt) / 1e3);
      // A replica that cannot serve (still replaying its ledger) gets no more requests until it can.
      if (proxyRes.statusCode === 503) options.pool.setAsideUntilServing(attempts.tried[attempts.tried.length - 1]);
    }
    options.onAnswer?.(proxyRes, req);
    // An answer cut off mid-body must reach the client as a cut-off answer, not a hang.
    proxyRes.on('close', () => {
      if (!proxyRes.complete) res.destroy();
    });
    context.ownHeadersDue = false;
    res.writeHead(
      proxyRes.statusCode ?? 502,
      proxyRes.statusMessage,
      options.headers.proxiedHead(context.id, proxyRes.rawHeaders, context.rateLimitHeaders),
    );
    proxyRes.pipe(res);
  };
}

type SendAgain = (req: IncomingMessage, res: ServerResponse, next: NextAttempt) => void;

/** A failed exchange: sent again where nextAttempt allows, else counted, logged and answered in the error format. */
function onUpstreamError(options: AreaProxyOptions, sendAgain: SendAgain) {
  const { area, pool, logger, upstreamErrors } = options;
  return (error: Error, req: IncomingMessage, res: ServerResponse | Socket): void => {
    const response = 'writeHead' in res ? res : undefined;
    // The exchange was given up because the client left: no fault of the service.
    if (response && clientLeft(response)) return;
    const next = response && nextAttempt(error, req, response, pool);
    if (response && next !== undefined) {
      options.upstreamRetries.inc({ upstream: area.service });
      logger.info({ err: error, reqId: contextOf(req).id, service: area.service, replica: next.baseUrl }, 'upstream request sent again');
      sendAgain(req, response, next);
      return;
    }
    const failure = classifyUpstreamError(error);
    upstreamErrors.inc({ upstream: area.service, reason: failure });
    logger.warn({ err: error, reqId: contextOf(req).id, service: area.service, failure }, 'upstream request failed');
    if (!response) {
      res.destroy();
      return;
    }
    const { status, message } = failureResponse(area.service, failure);
    sendError(response, status, message);
  };
}

/** Forwards one area to its replicas in turn: `/api` prefix dropped, query and body passed through untouched. */
export function createAreaProxy(options: AreaProxyOptions): RequestHandler {
  const { area, pool, agent } = options;
  // Parsed once here: http-proxy would parse a URL string again for every request.
  const targets = new Map(pool.baseUrls.map((url) => [url, new URL(url)]));
  const proxy = createProxyMiddleware<IncomingMessage, ServerResponse>({
    router: (req) => {
      const baseUrl = pool.pick()!;
      firstAttempt(req, baseUrl);
      return targets.get(baseUrl);
    },
    agent,
    changeOrigin: true,
    // Without toProxy, http-proxy re-parses req.url with the legacy url.parse, which
    // rewrites some characters (a backslash becomes a slash); the service must get the
    // path and query exactly as the client sent them.
    toProxy: true,
    // The default plugins answer errors with a text page and log to the console.
    ejectPlugins: true,
    // onUpstreamAnswer writes the head, its headers at once, and passes the body on.
    selfHandleResponse: true,
    plugins: [debugProxyErrorsPlugin, upstreamEvents(options, targets)],
  });
  return (req, res, next) => {
    prepareServiceRequest(req, req.context);
    // Inside the mount req.url is the rest after the area's public path. Set here rather than by
    // the proxy's pathRewrite, which costs a promise per request.
    req.url = `${area.servicePath}${req.url}`;
    void proxy(req, res, next);
  };
}

/** Stands in for an area whose service has no URL configured. */
export function unconfiguredArea(service: ServiceName): RequestHandler {
  return (_req, res) => sendError(res, 503, `${service} service is not available`);
}
