import Router from '@koa/router';
import Koa, { type Middleware } from 'koa';
import { requestLog, type Logger, type Metrics } from '@ledger-api/observability';
import { ApiError, errorBody, normalizePath, REQUEST_ID_HEADER, requestIdFrom } from '@ledger-api/http-core';
import { errorMiddleware } from './errors';
import { buildOpenApiDocument, type OpenApiInfo } from './openapi';
import { liveEventsRoute, type LiveEventsRoute } from './live-events-route';
import { pageCache, type PageCacheLike } from './page-cache';
import { mountRoutes, type AnyRoute } from './route';
import type { ServedLedgerState } from './types';
import type { HistoryReads } from './history';

export interface HttpAppOptions {
  /** Cache namespace and log name, e.g. `guardian`. */
  area: string;
  info: OpenApiInfo;
  /** API routes; an empty list gives an operations-only app (projector role). */
  routes: AnyRoute[];
  servedLedgerState(): Promise<ServedLedgerState>;
  /**
   * Why API routes cannot answer right now (e.g. the read model is still being
   * replayed), or undefined when they can. While set, they answer 503.
   */
  unavailableReason?(): string | undefined;
  /**
   * Runs an API request so that all its reads, the ledger position included,
   * see one state of the data: given only where the store takes snapshot reads.
   */
  readConsistently?<T>(work: () => Promise<T>): Promise<T>;
  cache?: PageCacheLike;
  /** What the area keeps of its past: routes that read records answer at a past height with it (docs/behaviour.md section 12). */
  history?: HistoryReads;
  /** The area's live stream of committed blocks, served once the read model can be served. */
  liveEvents?: LiveEventsRoute;
  logger: Logger;
  metrics: Metrics;
}

function observe(logger: Logger, metrics: Metrics): Middleware {
  const logRequest = requestLog(logger);
  return async (ctx, next) => {
    const requestId = requestIdFrom(ctx.get(REQUEST_ID_HEADER));
    ctx.state.requestId = requestId;
    ctx.set('X-Request-Id', requestId);
    const started = performance.now();
    try {
      await next();
    } finally {
      const milliseconds = performance.now() - started;
      const route = String((ctx as { _matchedRoute?: string })._matchedRoute ?? 'unmatched');
      metrics.observeRequest({ method: ctx.method, route, status: String(ctx.status) }, milliseconds / 1e3);
      const responseTime = Math.round(milliseconds * 10) / 10;
      const userAgent = ctx.get('user-agent') || undefined;
      logRequest({ method: ctx.method, url: ctx.url, route, statusCode: ctx.status, responseTime, reqId: requestId, userAgent });
    }
  };
}

/** A trailing slash is ignored (docs/behaviour.md section 1). */
const stripTrailingSlash: Middleware = async (ctx, next) => {
  const path = normalizePath(ctx.path);
  if (path !== ctx.path) ctx.path = path;
  await next();
};

/** Probes and metrics are not here: they are served on the process's admin port (startAdminServer). */
function operationsRouter(openApi: unknown): Router {
  const router = new Router({ sensitive: true });
  router.get('/openapi.json', (ctx) => {
    ctx.body = openApi;
  });
  return router;
}

/** A half-built read model is never served: API routes wait for the replay to finish. */
function servingGate(unavailableReason: () => string | undefined): Middleware {
  return async (_ctx, next) => {
    const reason = unavailableReason();
    if (reason !== undefined) throw new ApiError(503, reason);
    await next();
  };
}

/** Every API response carries the height of the ledger state it was read from; the page cache keys pages by its commit. */
function ledgerHeader(servedLedgerState: () => Promise<ServedLedgerState>): Middleware {
  return async (ctx, next) => {
    const state = await servedLedgerState();
    // Read once per request: the page cache keys the page by it.
    ctx.state.ledgerState = state;
    ctx.set({ 'X-Block-Height': String(state.height), 'X-Block-Id': state.blockId });
    await next();
  };
}

export function createHttpApp(options: HttpAppOptions): Koa {
  const app = new Koa();
  app.proxy = true;
  const liveEventsDocumentation = options.liveEvents && { basePath: options.liveEvents.basePath, tag: options.liveEvents.tag };
  const operations = operationsRouter(buildOpenApiDocument(options.info, options.routes, { liveEvents: liveEventsDocumentation }));
  // Paths are case-sensitive (docs/behaviour.md section 1): `/nft/ASSETS` is unknown.
  const api = new Router({ sensitive: true });
  const lookups = options.cache && options.metrics.counter('page_cache_requests_total', 'API page cache lookups by result', ['result']);
  const { readConsistently } = options;
  const snapshotReads = readConsistently !== undefined;
  mountRoutes(
    api,
    options.routes,
    pageCache({ area: options.area, ledgerState: options.servedLedgerState, snapshotReads, cache: options.cache, lookups }),
    options.history,
  );
  app.use(observe(options.logger, options.metrics));
  app.use(errorMiddleware(options.logger));
  app.use(stripTrailingSlash);
  app.use(operations.routes());
  // Served from the commit feed, not from a read of the store: a refusal is a stream that browsers retry.
  if (options.liveEvents) app.use(liveEventsRoute(options.liveEvents, options.unavailableReason));
  // Before the ledger is read: a refusal during the replay names no height of the half-built model.
  if (options.unavailableReason) app.use(servingGate(options.unavailableReason));
  if (readConsistently) app.use((ctx, next) => readConsistently(next));
  app.use(ledgerHeader(options.servedLedgerState));
  app.use(api.routes());
  app.use(async (ctx) => {
    ctx.status = 404;
    ctx.body = errorBody(404, 'Not Found');
    ctx.set('Cache-Control', 'no-store');
  });
  return app;
}
