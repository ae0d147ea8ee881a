import { STATUS_CODES } from 'node:http';
import type { Middleware } from 'koa';
import { ApiError, errorBody, errorStatus, RETRY_AFTER_SECONDS, STORABLE_HEADER, VALIDITY_HEADER } from '@ledger-api/http-core';
import type { Logger } from '@ledger-api/observability';

/**
 * Whether an error's message was written for the client: an ApiError, or an
 * error that says so with `expose: true` (Koa's convention), such as a store's
 * query timeout. Any other message may hold internals.
 */
function exposesMessage(error: unknown): error is Error {
  return error instanceof ApiError || (error instanceof Error && (error as { expose?: unknown }).expose === true);
}

const UNAVAILABLE_MESSAGE = 'A backing service is unavailable, try again shortly';
const INTERNAL_ERROR_MESSAGE = 'An internal server error occurred';

/** Turns anything thrown below it into the error body; never leaks a stack or driver message. */
export function errorMiddleware(logger: Logger): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      const status = errorStatus(error) ?? 500;
      let message: string;
      if (exposesMessage(error)) {
        message = error.message;
        if (!(error instanceof ApiError) && status >= 500) logger.warn({ err: error, reqId: ctx.state.requestId }, 'request failed');
      } else if (status === 503) {
        message = UNAVAILABLE_MESSAGE;
        logger.warn({ err: error, reqId: ctx.state.requestId }, 'dependency unavailable');
      } else if (status < 500) {
        // Any other error's message may hold internals: a client error gets its reason phrase.
        message = STATUS_CODES[status] ?? 'Error';
      } else {
        message = INTERNAL_ERROR_MESSAGE;
        logger.error({ err: error, reqId: ctx.state.requestId }, 'unhandled error');
      }
      ctx.status = status;
      ctx.body = errorBody(status, message, error instanceof ApiError ? error.members : {});
      if (error instanceof ApiError) ctx.set({ ...error.headers });
      // The answer was not read from the ledger state the headers named (docs/behaviour.md section 8).
      if (status >= 500) {
        ctx.remove('X-Block-Height');
        ctx.remove('X-Block-Id');
      }
      ctx.set('Cache-Control', 'no-store');
      // The route marked its answer storable before it was read; an error answer never is.
      ctx.remove(STORABLE_HEADER);
      ctx.remove(VALIDITY_HEADER);
      if (status === 503) ctx.set('Retry-After', String(RETRY_AFTER_SECONDS));
    }
  };
}
