import { STATUS_CODES } from 'node:http';
import type { Middleware } from 'koa';
import type { Logger } from '@ledger-api/observability';

/** The one error type of every app: it becomes the body of api-behaviour.md section 2. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface ErrorBody {
  statusCode: number;
  error: string;
  message: string;
}

export function errorBody(status: number, message: string): ErrorBody {
  return { statusCode: status, error: STATUS_CODES[status] ?? 'Error', message };
}

export const notFound = (message = 'Not Found') => new ApiError(404, message);

/** How long a client is asked to wait after a 503 (api-behaviour.md section 2). */
export const RETRY_AFTER_SECONDS = 5;

// Store and cache adapters name their outage errors `<Something>UnavailableError`;
// matching on the name keeps this package free of adapter dependencies.
function isDependencyOutage(error: unknown): boolean {
  return error instanceof Error && /UnavailableError$/.test(error.name);
}

/** Turns anything thrown below it into the error body; never leaks a stack or driver message. */
export function errorMiddleware(logger: Logger): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      let status = 500;
      let message = 'An internal server error occurred';
      if (error instanceof ApiError) {
        ({ status, message } = error);
      } else if (isDependencyOutage(error)) {
        status = 503;
        message = 'A backing service is unavailable, try again shortly';
        logger.warn({ err: error, reqId: ctx.state.requestId }, 'dependency unavailable');
      } else {
        logger.error({ err: error, reqId: ctx.state.requestId }, 'unhandled error');
      }
      ctx.status = status;
      ctx.body = errorBody(status, message);
      ctx.set('Cache-Control', 'no-store');
      if (status === 503) ctx.set('Retry-After', String(RETRY_AFTER_SECONDS));
    }
  };
}
