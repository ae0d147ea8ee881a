import type { Middleware } from 'koa';
import { ApiError, type LiveEventSource, type LiveStreams } from '@ledger-api/http-core';
import { liveEventsPath, type LiveEventsDocumentation } from './live-events-openapi';

/** The area's live stream: where it is served, what it is served from, and how the OpenAPI document lists it. */
export interface LiveEventsRoute extends LiveEventsDocumentation {
  source: LiveEventSource;
  streams: LiveStreams;
}

/**
 * The area's live stream of committed blocks (api-behaviour.md section 9), at
 * `<basePath>/events`. It takes no query key; other methods than GET and HEAD fall
 * through to the 404 of unknown paths.
 */
export function liveEventsRoute({ basePath, source, streams }: LiveEventsRoute): Middleware {
  const path = liveEventsPath(basePath);
  return async (ctx, next) => {
    if (ctx.path !== path || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return next();
    const [key] = Object.keys(ctx.query);
    if (key !== undefined) throw new ApiError(422, `"${key}" is not allowed`);
    // The stream writes to the socket itself for as long as the client stays.
    ctx.respond = false;
    await streams.serve(ctx.req, ctx.res, source);
  };
}
