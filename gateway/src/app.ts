import { Agent } from 'node:http';
import cors from 'cors';
import express, { type Express } from 'express';
import type { Store } from 'express-rate-limit';
import helmet from 'helmet';
import type { Logger, Metrics } from '@ledger-api/observability';
import type { GatewayConfig } from './config';
import { errorHandler, notFound } from './errors';
import { createOpenApiSource, openApiHandler } from './openapi';
import { createAreaProxy, unconfiguredArea, type UpstreamErrorCounter } from './proxy';
import { createRateLimiter } from './rate-limit';
import { livez, readyz } from './readiness';
import { bufferRequestBody } from './request-body';
import { assignRequestId, observeRequests } from './request-context';
import { AREAS, configuredUpstreams, upstreamOf } from './upstreams';

export interface GatewayDependencies {
  logger: Logger;
  metrics: Metrics;
  /** Rate-limit counters shared between replicas; in-process when absent. */
  rateLimitStore?: Store;
  /** Connection pool towards the services; the owner destroys it at shutdown. */
  upstreamAgent?: Agent;
  openApiCacheTtlMs?: number;
}

const EXPOSED_HEADERS = [
  'X-Block-Height',
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

const DEFAULT_OPENAPI_CACHE_TTL_MS = 15_000;

function securityHeaders() {
  // A JSON API renders nothing: no content sources, no framing. Resources are
  // meant to be read cross-origin, as the open CORS policy says.
  return helmet({
    contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
    crossOriginResourcePolicy: { policy: 'cross-origin' },
    frameguard: { action: 'deny' },
  });
}

function mountAreas(app: Express, config: GatewayConfig, deps: GatewayDependencies, upstreamErrors: UpstreamErrorCounter): void {
  const agent = deps.upstreamAgent ?? new Agent({ keepAlive: true });
  for (const area of AREAS) {
    const upstream = upstreamOf(area, config);
    app.use(
      area.mountPath,
      upstream
        ? [bufferRequestBody, createAreaProxy({ area, upstream, timeoutMs: config.PROXY_TIMEOUT_MS, agent, logger: deps.logger, upstreamErrors })]
        : unconfiguredArea(area.service),
    );
  }
}

/** The gateway's Express app, ready to be served; it never listens by itself. */
export function buildApp(config: GatewayConfig, deps: GatewayDependencies): Express {
  const { logger, metrics } = deps;
  const upstreams = configuredUpstreams(config);
  const upstreamErrors = metrics.counter('gateway_upstream_errors_total', 'Proxied requests that got no valid answer', ['upstream', 'reason']);
  const openApiCacheTtlMs = deps.openApiCacheTtlMs ?? DEFAULT_OPENAPI_CACHE_TTL_MS;
  const openApiSource = createOpenApiSource({ upstreams, fetchTimeoutMs: config.READY_TIMEOUT_MS, cacheTtlMs: openApiCacheTtlMs, logger });
  const rateLimiter = createRateLimiter({ limitPerMinute: config.RATE_LIMIT_PER_MINUTE, store: deps.rateLimitStore, logger });

  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', config.TRUST_PROXY);
  // Paths are case-sensitive at the services; `/API/Guardian` must not reach one.
  app.set('case sensitive routing', true);

  app.use(assignRequestId, observeRequests(logger, metrics), securityHeaders());
  app.use(cors({ origin: '*', methods: ['GET', 'HEAD', 'POST', 'OPTIONS'], exposedHeaders: EXPOSED_HEADERS, maxAge: 600 }));

  app.get('/livez', livez);
  app.get('/readyz', readyz(upstreams, config.READY_TIMEOUT_MS));
  app.get('/metrics', async (_req, res) => {
    res.set('Content-Type', metrics.registry.contentType).send(await metrics.registry.metrics());
  });

  if (rateLimiter) app.use(rateLimiter);
  app.get('/api/openapi.json', openApiHandler(openApiSource, openApiCacheTtlMs));
  mountAreas(app, config, deps, upstreamErrors);

  app.use(notFound);
  app.use(errorHandler(logger));
  return app;
}
