import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { componentRef, errorResponse, type ErrorResponseSpec, type HeaderObject } from '@ledger-api/http-core';
import { API_DESCRIPTION, TAG_DESCRIPTIONS } from './openapi-text';
import { GATEWAY_MANIFEST } from './paths';

/**
 * The public OpenAPI document: the services' documents behind the gateway's `/api`
 * prefix, with what the gateway itself adds to every answer (rate limits, 429, 502).
 * `npm run openapi` writes it to gateway/openapi.json, which the gateway serves.
 */

interface Operation {
  operationId?: string;
  responses: Record<string, unknown>;
}

type Components = Record<string, Record<string, unknown>>;

/** What the gateway needs of a service's document (see buildOpenApiDocument). */
export interface ServiceDocument {
  paths: Record<string, Record<string, Operation>>;
  components: Components;
  tags: Array<{ name: string }>;
}

export interface PublicDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string; license: { name: string; identifier: string } };
  servers: Array<{ url: string; description: string }>;
  security: [];
  tags: Array<{ name: string; description: string }>;
  paths: Record<string, Record<string, Operation>>;
  components: Components;
}

const GATEWAY_PATH_PREFIX = '/api';

function gatewayVersion(): string {
  const packageJson = JSON.parse(readFileSync(GATEWAY_MANIFEST, 'utf8')) as { version: string };
  return packageJson.version;
}

/**
 * The services' documents as one: every path gains the `/api` prefix; components and
 * tags are united. Two services defining one component differently is a mistake in the code.
 */
export function mergeOpenApiDocuments(documents: ServiceDocument[]): ServiceDocument {
  const merged: ServiceDocument = { paths: {}, components: {}, tags: [] };
  for (const document of documents) {
    for (const [path, item] of Object.entries(document.paths)) merged.paths[`${GATEWAY_PATH_PREFIX}${path}`] = item;
    for (const [section, entries] of Object.entries(document.components)) {
      const target = (merged.components[section] ??= {});
      for (const [name, definition] of Object.entries(entries)) {
        if (name in target && !isDeepStrictEqual(target[name], definition))
          throw new Error(`Services define the ${section} component "${name}" differently`);
        target[name] = definition;
      }
    }
    for (const tag of document.tags) if (!merged.tags.some(({ name }) => name === tag.name)) merged.tags.push(tag);
  }
  return merged;
}

const RATE_LIMIT_HEADERS: Record<string, HeaderObject> = {
  RateLimit: {
    description: 'Requests left in the current window (`r`) and seconds until it ends (`t`); sent while rate limiting is on',
    schema: { type: 'string' },
    example: '"6000-in-1min"; r=5999; t=60',
  },
  'RateLimit-Policy': {
    description: 'The limit: requests (`q`) per window of `w` seconds, per client address',
    schema: { type: 'string' },
    example: '"6000-in-1min"; q=6000; w=60; pk=:ZDg2ZjYyMjM0ZTc0:',
  },
  'X-RateLimit-Limit': { description: 'Requests allowed per window', schema: { type: 'integer' }, example: 6000 },
  'X-RateLimit-Remaining': { description: 'Requests left in the current window', schema: { type: 'integer' }, example: 5999 },
  'X-RateLimit-Reset': { description: 'When the current window ends, in Unix time (seconds)', schema: { type: 'integer' }, example: 1767225600 },
};

const GATEWAY_ERRORS: Record<number, ErrorResponseSpec & { name: string }> = {
  429: {
    name: 'TooManyRequests',
    description: 'The client address sent more requests in this window than the rate limit allows; try again after Retry-After seconds',
    headers: ['Retry-After', 'X-Request-Id', 'Cache-Control'],
    messages: { 'Over the limit': 'Rate limit of 6000 requests per minute exceeded' },
  },
  502: {
    name: 'BadGateway',
    description: 'The service behind the gateway sent no valid answer',
    headers: ['X-Request-Id', 'Cache-Control'],
    messages: { 'Broken answer': 'nft-base service sent no valid answer' },
  },
};

type ResponseObject = { $ref?: string; headers?: Record<string, unknown> };

/**
 * Every answer the gateway's app gives carries the rate-limit headers; those it gives
 * have an X-Request-Id, unlike the refusals of requests it could not read (400, 408, 431).
 */
function addRateLimitHeaders(response: ResponseObject): void {
  if (!response.headers?.['X-Request-Id']) return;
  for (const name of Object.keys(RATE_LIMIT_HEADERS)) response.headers[name] = componentRef('headers', name);
}

function addGatewayResponses(paths: PublicDocument['paths'], components: Components): void {
  components.headers = { ...components.headers, ...RATE_LIMIT_HEADERS };
  const sharedResponses = (components.responses ??= {});
  for (const [status, { name, ...spec }] of Object.entries(GATEWAY_ERRORS)) sharedResponses[name] = errorResponse(Number(status), spec);
  for (const response of Object.values(sharedResponses)) addRateLimitHeaders(response as ResponseObject);
  for (const operation of Object.values(paths).flatMap((item) => Object.values(item))) {
    // An operation that describes its own answer of a status keeps it.
    for (const [status, { name }] of Object.entries(GATEWAY_ERRORS)) operation.responses[status] ??= componentRef('responses', name);
    for (const response of Object.values(operation.responses)) addRateLimitHeaders(response as ResponseObject);
  }
}

/** Generated clients and the API reference name operations by their ids, so every operation has its own. */
function checkOperationIds(paths: PublicDocument['paths']): void {
  const seen = new Set<string>();
  for (const [path, item] of Object.entries(paths)) {
    for (const [method, { operationId }] of Object.entries(item)) {
      if (!operationId) throw new Error(`${method.toUpperCase()} ${path} has no operationId: declare one in its defineRoute`);
      if (seen.has(operationId)) throw new Error(`The operationId ${operationId} is used twice`);
      seen.add(operationId);
    }
  }
}

function describeTags(tags: ServiceDocument['tags']): PublicDocument['tags'] {
  return tags.map(({ name }) => {
    const description = TAG_DESCRIPTIONS[name];
    if (!description) throw new Error(`The tag "${name}" has no description: add one to TAG_DESCRIPTIONS`);
    return { name, description };
  });
}

export function buildPublicOpenApiDocument(serviceDocuments: ServiceDocument[]): PublicDocument {
  // The gateway's additions change operations and responses in place; the services' documents stay as they were.
  const { paths, components, tags } = structuredClone(mergeOpenApiDocuments(serviceDocuments));
  checkOperationIds(paths);
  addGatewayResponses(paths, components);
  return {
    openapi: '3.1.0',
    info: { title: 'Ledger Query API', version: gatewayVersion(), description: API_DESCRIPTION, license: { name: 'MIT', identifier: 'MIT' } },
    servers: [{ url: '/', description: 'The gateway that serves this document' }],
    // A public, read-only API: no credentials.
    security: [],
    tags: describeTags(tags),
    paths,
    components,
  };
}
