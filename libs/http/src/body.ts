import type { IncomingMessage } from 'node:http';
import type { Context } from 'koa';
import { ApiError } from './errors';

export const MAX_BODY_BYTES = 64 * 1024;

/** The client went away before its body arrived: there is nobody to answer and nothing went wrong here. */
export class RequestAbortedError extends ApiError {
  constructor() {
    super(400, 'The request body was not received completely');
    this.name = 'RequestAbortedError';
  }
}

/**
 * Reads a request body of at most maxBytes. A larger one is refused with 413 while the
 * rest of it is read and discarded: the client can finish sending, read the answer and
 * reuse the connection. Destroying the request instead resets the connection, often
 * before the answer reaches the client. The server's request deadline bounds the draining.
 */
export function readRequestBody(req: IncomingMessage, maxBytes = MAX_BODY_BYTES): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const discardRest = (error: ApiError) => {
      req.resume();
      reject(error);
    };
    if (Number(req.headers['content-length'] ?? 0) > maxBytes) {
      discardRest(tooLarge(maxBytes));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    const stopReading = () => req.off('data', onData).off('end', onEnd).off('close', onAbort).off('error', onAbort);
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes) {
        chunks.push(chunk);
        return;
      }
      stopReading();
      discardRest(tooLarge(maxBytes));
    };
    const onEnd = () => {
      stopReading();
      resolve(Buffer.concat(chunks));
    };
    const onAbort = () => {
      stopReading();
      reject(new RequestAbortedError());
    };
    req.on('data', onData).once('end', onEnd).once('close', onAbort).once('error', onAbort);
  });
}

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

function tooLarge(maxBytes: number): ApiError {
  return new ApiError(413, `Payload content length greater than maximum allowed: ${maxBytes}`);
}
