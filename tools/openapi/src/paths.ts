import { join, resolve } from 'node:path';

/** The repository's root, from this package's src/ or dist/. */
export const ROOT = resolve(__dirname, '../../..');

/** The gateway's manifest: the document's version is the gateway's. */
export const GATEWAY_MANIFEST = join(ROOT, 'gateway', 'package.json');

/** The committed public OpenAPI document, which the gateway serves. */
export const DOCUMENT_FILE = join(ROOT, 'gateway', 'openapi.json');

/** The document as last released: what clients out there were built against. */
export const RELEASED_FILE = join(ROOT, 'gateway', 'openapi.released.json');

/** The breaking changes since the last release that were made on purpose, each with its reason. */
export const APPROVALS_FILE = join(ROOT, 'gateway', 'openapi.approved-changes.json');
