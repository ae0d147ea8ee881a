import type { Agent } from 'node:http';
import cors from 'cors';
import express, { type Express, type Request, type RequestHandler, type Response } from 'express';
import helmet from 'helmet';
import type { RequestHandlerOf } from '@ledger-api/http-core';
import type { Logger, Metrics } from '@ledger-api/observability';
import { apiReference } from './api-reference';
import type { GatewayConfig } from './config';
import { errorHandler, notFound } from './errors';
import { openApiHandler, readOpenApiDocument } from './openapi';
import { createAreaProxy, unconfiguredArea, type UpstreamDurationHistogram, type UpstreamErrorCounter, type UpstreamRetryCounter } from './proxy';
import { clientAddressOf } from './client-address';
import { answerHitsFirst, edgeAnswers, keepForEdge, keptAnswers, type EdgeFrontOptions, type GatewayEdge } from './edge';
import { createRateLimiter, type SharedCounts } from './rate-limit';
import { livez } from './readiness';
import { bufferRequestBody } from './request-body';
import { requestContext } from './request-context';
import { AREAS, createUpstreamAgent, upstreamOf, upstreamPoolOf } from './upstreams';

export interface GatewayDependencies {
  logger: Logger;
  metrics: Metrics;
  /** Where gateway replicas add up their rate-limit counts; each replica on its own when absent. */
  rateLimitCounts?: SharedCounts;
  /** Connection pool towards the services; the owner destroys it at shutdown. */
  upstreamAgent?: Agent;
  /** Milliseconds since the epoch, for the rate limit's windows; Date.now when absent. */
  clock?: () => number;
  /** The commit feeds, edge cache and live streams; without it every request is proxied and live streams answer 503. */
  edge?: GatewayEdge;
}

const EXPOSED_HEADERS = [
  'X-Block-Height',
  'X-Block-Id',
  'X-Request-Id',
  'ETag',
  'Cache-Control',
  'Retry-After',
  'RateLimit',
  'RateLimit-Policy',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
];

/**
 * The security headers of a JSON API (OWASP's REST security cheat sheet): it renders
 * nothing, so no content sources and no framing; no sniffing; HTTPS only; resources
 * meant to be read cross-origin, as the open CORS policy says. The headers that only
 * govern HTML documents are left to the reference page (see apiReference): on every
 * answer they would cost bytes and time and protect nothing.
 */
function securityHeaders(): RequestHandler {
  return helmet({
    contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
    crossOriginResourcePolicy: { policy: 'cross-origin' },
    frameguard: { action: 'deny' },
    crossOriginOpenerPolicy: false,
    originAgentCluster: false,
    referrerPolicy: false,
    xDnsPrefetchControl: false,
    xDownloadOptions: false,
    xPermittedCrossDomainPolicies: false,
    xXssProtection: false,
  });
}

const corsPolicy = cors({ origin: '*', methods: ['GET', 'HEAD', 'POST', 'OPTIONS'], exposedHeaders: EXPOSED_HEADERS, maxAge: 600 });

/**
 * The headers the given middleware set on every answer, found once at start by running them
 * against a recording response: per request they are copied, not worked out again.
 */
function headersSetBy(handlers: RequestHandler[]): [string, string][] {
  const headers = new Map<string, string>();
  const recorder = {
    setHeader: (name: string, value: unknown) => headers.set(name, String(value)),
    getHeader: (name: string) => headers.get(name),
    removeHeader: (name: string) => headers.delete(name),
  };
  for (const handler of handlers) {
    let passedOn = false;
    void handler({ method: 'GET', headers: {} } as Request, recorder as unknown as Response, () => (passedOn = true));
    // Headers that depend on the request, or that come later, cannot be fixed in advance.
    if (!passedOn) throw new Error('a middleware of fixed headers must pass every request on at once');
  }
  return [...headers];
}

/** Preflight requests get the whole CORS answer; every other answer has its CORS headers among the fixed ones. */
const preflight: RequestHandler = (req, res, next) => (req.method === 'OPTIONS' ? corsPolicy(req, res, next) : next());

/** Each area with an edge cache, and the answer kept for a request of it. */
type EdgeAreas = EdgeFrontOptions['areas'];

function mountAreas(app: Express, config: GatewayConfig, deps: GatewayDependencies, metrics: AreaMetrics): EdgeAreas {
  const edgeAreas: Array<EdgeAreas[number]> = [];
  const agent = deps.upstreamAgent ?? createUpstreamAgent(config);
  const { edge } = deps;
  for (const area of AREAS) {
    const upstream = upstreamOf(area, config);
    const feed = edge?.feeds.get(area.service);
    if (!upstream) {
      app.use(area.mountPath, unconfiguredArea(area.service));
      continue;
    }
    app.all(`${area.mountPath}/events`, feed && edge ? edge.streams.route(area.service, feed) : unconfiguredArea(area.service));
    const edgeOptions = feed && edge?.cache && { area, feed, cache: edge.cache, requests: edge.requests, waits: edge.waits };
    if (edgeOptions) edgeAreas.push({ area, find: keptAnswers(edgeOptions) });
    const answersAtEdge = edgeOptions ? [edgeAnswers(edgeOptions)] : [];
    const onAnswer = feed && edge?.cache ? keepForEdge(feed, edge.cache, edge.maxEntryBytes) : undefined;
    const pool = upstreamPoolOf(area, upstream, config);
    const proxy = createAreaProxy({ area, pool, timeoutMs: config.PROXY_TIMEOUT_MS, agent, logger: deps.logger, onAnswer, ...metrics });
    app.use(area.mountPath, [bufferRequestBody, ...answersAtEdge, proxy]);
  }
  return edgeAreas;
}

interface AreaMetrics {
  upstreamErrors: UpstreamErrorCounter;
  upstreamRetries: UpstreamRetryCounter;
  upstreamDuration: UpstreamDurationHistogram;
}

const UPSTREAM_DURATION_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

function areaMetrics(metrics: Metrics): AreaMetrics {
  return {
    upstreamErrors: metrics.counter('gateway_upstream_errors_total', 'Proxied requests that got no valid answer', ['upstream', 'reason']),
    upstreamRetries: metrics.counter(
      'gateway_upstream_retries_total',
      'Proxied requests sent again, to another replica of the service or on a new connection, after a refused connection or a reset before any answer',
      ['upstream'],
    ),
    upstreamDuration: metrics.histogram(
      'gateway_upstream_duration_seconds',
      "Time from sending a request to a service to the head of the service's answer, by area",
      ['area'],
      UPSTREAM_DURATION_BUCKETS,
    ),
  };
}

/** What the gateway serves: every request goes to `handle`, which answers edge hits and passes the rest to `app`. */
export interface GatewayApp {
  app: Express;
  handle: RequestHandlerOf;
}

/** The gateway's request handling, ready to be served; it never listens by itself. */
export function buildApp(config: GatewayConfig, deps: GatewayDependencies): GatewayApp {
  const { logger, metrics } = deps;
  const rateLimiter = createRateLimiter({
    limitPerMinute: config.RATE_LIMIT_PER_MINUTE,
    shared: deps.rateLimitCounts,
    syncIntervalMs: config.RATE_LIMIT_SYNC_MS,
    logger,
    metrics,
    clientAddress: clientAddressOf(config),
    clock: deps.clock,
  });

  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', config.TRUST_PROXY);
  // Paths are case-sensitive at the services; `/API/Guardian` must not reach one.
  app.set('case sensitive routing', true);

  const context = requestContext({ logger, metrics, fixedHeaders: headersSetBy([securityHeaders(), corsPolicy]) });
  app.use(context.middleware, preflight);

  // Readiness and metrics are on the admin port (index.ts): here anyone could have the gateway probe every service.
  app.get('/livez', livez);

  if (rateLimiter) app.use(rateLimiter.middleware);
  app.get('/api/openapi.json', openApiHandler(readOpenApiDocument()));
  const edgeAreas = mountAreas(app, config, deps, areaMetrics(metrics));
  // After the areas, which it shares no path with: API requests need not pass its routes.
  app.use(apiReference());

  app.use(notFound);
  app.use(errorHandler(logger));
  return { app, handle: edgeAreas.length > 0 ? answerHitsFirst({ app, areas: edgeAreas, context, rateLimiter }) : app };
}
