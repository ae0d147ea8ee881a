import { STATUS_CODES } from 'node:http';
import { z } from 'zod';

/**
 * The one error type of every app: it becomes the body of docs/behaviour.md section 2,
 * with `members` (machine-readable details, e.g. `head` of a 409) added after its own,
 * and `headers` (e.g. Retry-After) set on the answer.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly members: Readonly<Record<string, unknown>> = {},
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** The body of every error answer (docs/behaviour.md section 2), named `Error` in the OpenAPI document. */
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

export function errorBody(status: number, message: string, members: Readonly<Record<string, unknown>> = {}): ErrorBody {
  return { statusCode: status, error: STATUS_CODES[status] ?? 'Error', message, ...members };
}

export const notFound = (message = 'Not Found') => new ApiError(404, message);

/** How long a client is asked to wait after a 503 (docs/behaviour.md section 2). */
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
