import type { Middleware } from 'koa';
import { ApiError, RETRY_AFTER_SECONDS, unexpectedStreamQueryKey, type LiveEventSource, type LiveStreams } from '@ledger-api/http-core';
import { liveEventsPath, type LiveEventsDocumentation } from './live-events-openapi';

/** The area's live stream: where it is served, what it is served from, and how the OpenAPI document lists it. */
export interface LiveEventsRoute extends LiveEventsDocumentation {
  source: LiveEventSource;
  streams: LiveStreams;
}

/**
 * The area's live stream of committed blocks (docs/behaviour.md section 9), at
 * `<basePath>/events`. It takes no query key but `lastEventId`; other methods than GET and
 * HEAD fall through to the 404 of unknown paths. While the read model is not served (its
 * replay runs: `unavailableReason`), the stream is refused the way browsers retry: a 200
 * stream that ends with `unavailable`.
 */
export function liveEventsRoute({ basePath, source, streams }: LiveEventsRoute, unavailableReason?: () => string | undefined): Middleware {
  const path = liveEventsPath(basePath);
  return async (ctx, next) => {
    if (ctx.path !== path || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return next();
    const key = unexpectedStreamQueryKey(Object.keys(ctx.query));
    if (key !== undefined) throw new ApiError(422, `"${key}" is not allowed`);
    // The stream writes to the socket itself for as long as the client stays.
    ctx.respond = false;
    const reason = unavailableReason?.();
    if (reason !== undefined) return streams.refuse(ctx.req, ctx.res, { reason, retryAfter: RETRY_AFTER_SECONDS });
    await streams.serve(ctx.req, ctx.res, source);
  };
}
