import type { RequestHandler } from 'express';
import { encodeVariants, negotiateEncoding, setContentEncoding, setRepresentationHeaders } from '@ledger-api/http-core';

/**
 * Serves a document fixed for the process's life, compressed once at start: each
 * request gets the representation its Accept-Encoding picks, with that
 * representation's ETag, and 304 when its If-None-Match still holds.
 */
export function encodedDocumentHandler(text: string, headers: Record<string, string>): RequestHandler {
  const variants = encodeVariants(text);
  return async (req, res) => {
    const variant = (await variants)[negotiateEncoding(req.headers['accept-encoding'])];
    res.set(headers);
    setRepresentationHeaders(res, variant);
    if (req.fresh) {
      res.status(304).end();
      return;
    }
    setContentEncoding(res, variant);
    res.send(variant.body);
  };
}
