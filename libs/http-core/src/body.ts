import type { IncomingMessage } from 'node:http';
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

function tooLarge(maxBytes: number): ApiError {
  return new ApiError(413, `Payload content length greater than maximum allowed: ${maxBytes}`);
}
