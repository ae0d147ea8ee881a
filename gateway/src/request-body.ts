import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { MAX_BODY_BYTES, readRequestBody, RequestAbortedError, type ApiError } from '@ledger-api/http-core';
import { sendError } from './errors';

const hasBody = (req: Request) => req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined;

/**
 * Reads a request body whole, into the request's context, before it goes to a service. The
 * gateway refuses bodies over the limit itself, however they are framed, so a service never
 * receives one; and a service never waits on a slow client: the server's request deadline
 * answers that one 408. A request without a body passes on at once, without a promise.
 */
export const bufferRequestBody: RequestHandler = (req, res, next) => {
  if (!hasBody(req)) return next();
  void readWhole(req, res, next);
};

async function readWhole(req: Request, res: Response, next: NextFunction): Promise<void> {
  try {
    req.context.body = await readRequestBody(req, MAX_BODY_BYTES);
  } catch (error) {
    // A client that went away has nobody left to answer.
    if (error instanceof RequestAbortedError) return;
    const { status, message } = error as ApiError;
    sendError(res, status, message);
    return;
  }
  next();
}
