import type { Agent } from 'node:http';
import express, { type Express } from 'express';
import type { RequestHandlerOf } from '@ledger-api/http-core';
import type { Logger, Metrics } from '@ledger-api/observability';
import { apiReference } from './api-reference';
import type { GatewayConfig } from './config';
import { errorHandler, answerNotFound } from './errors';
import { openApiHandler, readOpenApiDocument } from './openapi';
import { createAreaProxy, unconfiguredArea, type UpstreamDurationHistogram, type UpstreamErrorCounter, type UpstreamRetryCounter } from './proxy';
import { clientAddressOf } from './client-address';
import { edgeHits, type EdgeHitArea, type GatewayEdge } from './edge';
import { headerPolicy, type HeaderPolicy } from './header-policy';
import { createRateLimiter, type SharedCounts } from './rate-limit';
import { livez } from './readiness';
import { bufferRequestBody } from './request-body';
import { ownHeadersAtWriteHead, requestPipeline } from './request-context';
import { ROUTED_AREAS, createUpstreamAgent, upstreamOf, upstreamPoolOf } from './upstreams';

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

/** Mounts each area: its live stream, then its body reading, edge answers and proxy. Returns the areas with an edge cache. */
function mountAreas(app: Express, config: GatewayConfig, deps: GatewayDependencies, headers: HeaderPolicy, metrics: AreaMetrics): EdgeHitArea[] {
  const edgeAreas: EdgeHitArea[] = [];
  const agent = deps.upstreamAgent ?? createUpstreamAgent(config);
  for (const area of ROUTED_AREAS) {
    const upstream = upstreamOf(area, config);
    if (!upstream) {
      app.use(area.mountPath, unconfiguredArea(area.service));
      continue;
    }
    const edge = deps.edge?.forArea(area);
    app.all(`${area.mountPath}/events`, edge?.events ?? unconfiguredArea(area.service));
    const cached = edge?.cached;
    if (cached) edgeAreas.push({ area, find: cached.find });
    const pool = upstreamPoolOf(area, upstream, config);
    const proxy = createAreaProxy({
      area,
      pool,
      timeoutMs: config.PROXY_TIMEOUT_MS,
      agent,
      logger: deps.logger,
      headers,
      onAnswer: cached?.onAnswer,
      ...metrics,
    });
    app.use(area.mountPath, cached ? [bufferRequestBody, cached.answers, proxy] : [bufferRequestBody, proxy]);
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

/**
 * What the gateway serves: every request goes to `handle`, which opens its context, answers
 * edge hits and passes the rest to `app`. Served by `listen`, whose requests and responses
 * are made with the app's prototypes.
 */
export interface GatewayApp {
  app: Express;
  handle: RequestHandlerOf;
}

function rateLimiterOf(config: GatewayConfig, deps: GatewayDependencies) {
  return createRateLimiter({
    limitPerMinute: config.RATE_LIMIT_PER_MINUTE,
    shared: deps.rateLimitCounts,
    syncIntervalMs: config.RATE_LIMIT_SYNC_MS,
    logger: deps.logger,
    metrics: deps.metrics,
    clientAddress: clientAddressOf(config),
    clock: deps.clock,
  });
}

/** The gateway's request handling, ready to be served; it never listens by itself. */
export function buildApp(config: GatewayConfig, deps: GatewayDependencies): GatewayApp {
  const { logger, metrics } = deps;
  const rateLimiter = rateLimiterOf(config, deps);

  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', config.TRUST_PROXY);
  // Paths are case-sensitive at the services; `/API/Guardian` must not reach one.
  app.set('case sensitive routing', true);

  const headers = headerPolicy();
  const pipeline = requestPipeline({ logger, metrics });
  ownHeadersAtWriteHead(app, headers);
  app.use(pipeline.middleware, headers.preflight);

  // Readiness and metrics are on the admin port (index.ts): here anyone could have the gateway probe every service.
  app.get('/livez', livez);

  if (rateLimiter) app.use(rateLimiter.middleware);
  const edgeAreas = mountAreas(app, config, deps, headers, areaMetrics(metrics));
  // After the areas, which they share no path with: API requests need not pass their routes.
  app.get('/api/openapi.json', openApiHandler(readOpenApiDocument()));
  app.use(apiReference());

  app.use(answerNotFound);
  app.use(errorHandler(logger));
  const answerHit = edgeAreas.length > 0 ? edgeHits({ areas: edgeAreas, headers, rateLimiter }) : undefined;
  const handle: RequestHandlerOf = (req, res) => {
    const context = pipeline.open(req, res);
    if (!answerHit?.(req, res, context)) app(req, res);
  };
  return { app, handle };
}
