import type { Context } from 'koa';
import { ApiError, MAX_BODY_BYTES, readRequestBody } from '@ledger-api/http-core';

/** Reads a request body as text, refusing more than MAX_BODY_BYTES. */
export async function readBodyText(ctx: Context, maxBytes = MAX_BODY_BYTES): Promise<string> {
  return (await readRequestBody(ctx.req, maxBytes)).toString('utf8');
}

/**
 * Parses a JSON request body. An empty body reads as null, as hapi-based clients
 * of this API expect: it then fails an object schema with `"value" must be of type object`.
 */
export function parseJsonBody(text: string): unknown {
  if (text.trim() === '') return null;
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError(422, 'Invalid request payload JSON format');
  }
}
