import type { Context } from 'koa';
import { ApiError } from './errors';

export const MAX_BODY_BYTES = 64 * 1024;

/**
 * Reads a JSON request body, refusing more than MAX_BODY_BYTES. An empty body
 * reads as null, as hapi-based clients of this API expect: it then fails an
 * object schema with `"value" must be of type object`.
 */
export async function readJsonBody(ctx: Context, maxBytes = MAX_BODY_BYTES): Promise<unknown> {
  const declared = Number(ctx.get('content-length') || 0);
  if (declared > maxBytes) throw tooLarge(maxBytes);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req) {
    size += chunk.length;
    if (size > maxBytes) throw tooLarge(maxBytes);
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return null;
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError(422, 'Invalid request payload JSON format');
  }
}

function tooLarge(maxBytes: number): ApiError {
  return new ApiError(413, `Payload content length greater than maximum allowed: ${maxBytes}`);
}
