import { STATUS_CODES } from 'node:http';
import type { Middleware } from 'koa';
import { z } from 'zod';
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

/** The body of every error answer (api-behaviour.md section 2), named `Error` in the OpenAPI document. */
export const errorBodySchema = z
  .object({
    statusCode: z.number().int().meta({ description: 'The HTTP status code of the answer' }),
    error: z.string().meta({ description: 'Its HTTP reason phrase' }),
    message: z.string().meta({ description: 'What went wrong; never a stack trace or an internal detail' }),
  })
  .meta({
    id: 'Error',
    description: 'The body of every error answer',
    examples: [{ statusCode: 404, error: 'Not Found', message: 'Asset not found' }],
  });

export type ErrorBody = z.output<typeof errorBodySchema>;

export function errorBody(status: number, message: string): ErrorBody {
  return { statusCode: status, error: STATUS_CODES[status] ?? 'Error', message };
}

export const notFound = (message = 'Not Found') => new ApiError(404, message);

/** How long a client is asked to wait after a 503 (api-behaviour.md section 2). */
export const RETRY_AFTER_SECONDS = 5;

/**
 * The HTTP status an error says it answers with: an ApiError, a store outage (503) or
 * any other error with a `status` between 400 and 599. Errors carry their own status
 * so this package needs no knowledge of the adapters that throw them.
 */
export function errorStatus(error: unknown): number | undefined {
  const status = (error as { status?: unknown } | null | undefined)?.status;
  return typeof status === 'number' && Number.isInteger(status) && status >= 400 && status <= 599 ? status : undefined;
}

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
      ctx.body = errorBody(status, message);
      ctx.set('Cache-Control', 'no-store');
      if (status === 503) ctx.set('Retry-After', String(RETRY_AFTER_SECONDS));
    }
  };
}
