import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RequestHandler } from 'express';
import { encodedDocumentHandler } from './encoded-document';

/**
 * The committed OpenAPI document (`npm run openapi` writes it from the code), at the package
 * root: both src (tests) and dist sit one level below it.
 */
export const OPENAPI_DOCUMENT_FILE = join(__dirname, '..', 'openapi.json');

/** The document's text, checked to be JSON at start so a broken file stops the gateway instead of its clients. */
export function readOpenApiDocument(file = OPENAPI_DOCUMENT_FILE): string {
  const text = readFileSync(file, 'utf8');
  JSON.parse(text);
  return text;
}

// The document changes only with a release; clients may keep it a while.
const DOCUMENT_MAX_AGE_SECONDS = 300;

export function openApiHandler(documentText: string): RequestHandler {
  return encodedDocumentHandler(documentText, {
    'Cache-Control': `public, max-age=${DOCUMENT_MAX_AGE_SECONDS}`,
    'Content-Type': 'application/json; charset=utf-8',
  });
}
