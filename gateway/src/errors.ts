import { STATUS_CODES, type ServerResponse } from 'node:http';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { errorBody, errorStatus, RETRY_AFTER_SECONDS } from '@ledger-api/http-core';
import type { Logger } from '@ledger-api/observability';

/**
 * Writes an error in the API's error format, the reason phrase as message unless given one.
 * Works on a bare ServerResponse because proxy errors arrive outside Express; gateway
 * errors are never cacheable, and a 503 says when to try again.
 */
export function sendError(res: ServerResponse, statusCode: number, message = STATUS_CODES[statusCode] ?? 'Error'): void {
  if (res.headersSent) {
    // Part of an upstream answer is already on the wire: cutting the connection is the
    // only way to tell the client it is incomplete.
    res.destroy();
    return;
  }
  const body = JSON.stringify(errorBody(statusCode, message));
  res.statusCode = statusCode;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.setHeader('Cache-Control', 'no-store');
  if (statusCode === 503) res.setHeader('Retry-After', String(RETRY_AFTER_SECONDS));
  res.end(body);
}

export const answerNotFound: RequestHandler = (_req, res) => sendError(res, 404);

/** Last resort: whatever failed, the client gets the error format and never internals. */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, _next) => {
    const status = errorStatus(error) ?? 500;
    if (status >= 500) logger.error({ err: error, reqId: req.context.id }, 'request failed');
    sendError(res, status);
  };
}
