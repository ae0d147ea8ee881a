import type { ClientRequest, IncomingMessage } from 'node:http';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { MAX_BODY_BYTES, readRequestBody, RequestAbortedError, type ApiError } from '@ledger-api/http-core';
import { sendError } from './errors';

const bufferedBodies = new WeakMap<IncomingMessage, Buffer>();

const hasBody = (req: IncomingMessage) => req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined;

/**
 * Reads a request body whole before it goes to a service. The gateway refuses bodies over
 * the limit itself, however they are framed, so a service never receives one; and a
 * service never waits on a slow client: the server's request deadline answers that one 408.
 * A request without a body passes on at once, without a promise.
 */
export const bufferRequestBody: RequestHandler = (req, res, next) => {
  if (!hasBody(req)) return next();
  void readWhole(req, res, next);
};

async function readWhole(req: Request, res: Response, next: NextFunction): Promise<void> {
  let body: Buffer;
  try {
    body = await readRequestBody(req, MAX_BODY_BYTES);
  } catch (error) {
    // A client that went away has nobody left to answer.
    if (error instanceof RequestAbortedError) return;
    const { status, message } = error as ApiError;
    sendError(res, status, message);
    return;
  }
  // The service gets the body with its length, whether the client sent it chunked or not.
  req.headers['content-length'] = String(body.length);
  delete req.headers['transfer-encoding'];
  bufferedBodies.set(req, body);
  next();
}

/** The body bufferRequestBody read, if the request had one. */
export function bufferedBodyOf(req: IncomingMessage): Buffer | undefined {
  return bufferedBodies.get(req);
}

/** Sends a body read by bufferRequestBody on to the service; the request stream itself is spent. */
export function forwardBufferedBody(proxyReq: ClientRequest, req: IncomingMessage): void {
  const body = bufferedBodies.get(req);
  if (body) proxyReq.end(body);
}
