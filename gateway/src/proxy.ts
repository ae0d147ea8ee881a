import type { Agent, ClientRequest, IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import { createProxyMiddleware, debugProxyErrorsPlugin, type Plugin } from 'http-proxy-middleware';
import { LEDGER_COMMIT_HEADER, REQUEST_ID_HEADER } from '@ledger-api/http-core';
import type { Logger, Metrics } from '@ledger-api/observability';
import { sendError } from './errors';
import { forwardBufferedBody } from './request-body';
import type { Area, ServiceName, Upstream } from './upstreams';

export type UpstreamFailure = 'unavailable' | 'timeout' | 'bad_response';

/** Labelled by `upstream` (the service) and `reason` (an UpstreamFailure). */
export type UpstreamErrorCounter = ReturnType<Metrics['counter']>;

/** Labelled by `area` (the service). */
export type UpstreamDurationHistogram = ReturnType<Metrics['histogram']>;

export interface AreaProxyOptions {
  area: Area;
  upstream: Upstream;
  timeoutMs: number;
  /** Shared keep-alive agent: without one every proxied request opens a new connection. */
  agent: Agent;
  logger: Logger;
  upstreamErrors: UpstreamErrorCounter;
  /** Time from sending the request to the service to the head of its answer. */
  upstreamDuration: UpstreamDurationHistogram;
  /** Sees each answer's head before it goes on (the edge cache keeps answers through it). */
  onAnswer?(proxyRes: IncomingMessage, req: IncomingMessage): void;
}

class UpstreamTimeoutError extends Error {
  readonly code = 'ETIMEDOUT';
}

// A connection reset before any answer means the service went away mid-request (it
// crashed or was killed): the client should come back, as with a refused connection.
const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EHOSTDOWN']);

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
  res.once('close', () => {
    clearTimeout(timer);
    if (clientLeft(res)) proxyReq.destroy();
  });
}

function upstreamEvents(options: AreaProxyOptions): Plugin<IncomingMessage, ServerResponse> {
  const { upstream, timeoutMs, logger, upstreamErrors } = options;
  const upstreamDuration = options.upstreamDuration.labels({ area: upstream.service });
  return (proxyServer) => {
    proxyServer.on('proxyReq', (proxyReq, req, res) => {
      const startedAt = performance.now();
      proxyReq.once('response', () => upstreamDuration.observe((performance.now() - startedAt) / 1e3));
      boundExchange(proxyReq, res, timeoutMs);
      forwardBufferedBody(proxyReq, req);
    });
    proxyServer.on('proxyRes', (proxyRes, req, res) => {
      options.onAnswer?.(proxyRes, req);
      // Which commit an answer was rendered at is for the gateway alone.
      delete proxyRes.headers[LEDGER_COMMIT_HEADER];
      // The gateway owns the CORS policy; a service's own headers must not override it.
      for (const name of Object.keys(proxyRes.headers)) {
        if (name.startsWith('access-control-')) delete proxyRes.headers[name];
      }
      // An answer cut off mid-body must reach the client as a cut-off answer, not a hang.
      proxyRes.once('close', () => {
        if (!proxyRes.complete) res.destroy();
      });
    });
    proxyServer.on('error', (error, req, res) => {
      // The exchange was given up because the client left: no fault of the service.
      if ('writeHead' in res && clientLeft(res)) return;
      const failure = classifyUpstreamError(error);
      upstreamErrors.inc({ upstream: upstream.service, reason: failure });
      logger.warn({ err: error, reqId: req.headers[REQUEST_ID_HEADER], service: upstream.service, failure }, 'upstream request failed');
      if (!('writeHead' in res)) {
        res.destroy();
        return;
      }
      const { status, message } = failureResponse(upstream.service, failure);
      sendError(res, status, message);
    });
  };
}

/** Forwards one area to its service: `/api` prefix dropped, query and body passed through untouched. */
export function createAreaProxy(options: AreaProxyOptions): RequestHandler {
  const { area, upstream, agent } = options;
  const proxy = createProxyMiddleware<IncomingMessage, ServerResponse>({
    // Parsed once here: http-proxy would parse a URL string again for every request.
    target: new URL(upstream.baseUrl),
    agent,
    changeOrigin: true,
    xfwd: true,
    // Without toProxy, http-proxy re-parses req.url with the legacy url.parse, which
    // rewrites some characters (a backslash becomes a slash); the service must get the
    // path and query exactly as the client sent them.
    toProxy: true,
    // Inside the mount req.url is the rest after the area's public path.
    pathRewrite: (path) => `${area.servicePath}${path}`,
    // The default plugins answer errors with a text page and log to the console.
    ejectPlugins: true,
    plugins: [debugProxyErrorsPlugin, upstreamEvents(options)],
  });
  return (req, res, next) => {
    // Node already answered `100 Continue` to the client. With the header still set,
    // http-proxy skips its proxyReq event, and with it the upstream deadline.
    delete req.headers.expect;
    void proxy(req, res, next);
  };
}

/** Stands in for an area whose service has no URL configured. */
export function unconfiguredArea(service: ServiceName): RequestHandler {
  return (_req, res) => sendError(res, 503, `${service} service is not available`);
}
