import { STATUS_CODES } from 'node:http';
import {
  componentRef,
  errorResponse,
  headerRefs,
  MAX_BODY_BYTES,
  RETRY_AFTER_SECONDS,
  type ErrorResponseSpec,
  type HeaderObject,
  type JsonSchema,
} from '@ledger-api/http-core';
import type { AnyRoute } from './route';

/**
 * The responses and headers of the OpenAPI document that every route shares, as
 * components the operations refer to. The gateway adds its own the same way.
 */

const SERVICE_HEADERS: Record<string, HeaderObject> = {
  'X-Block-Height': {
    description: 'Height of the last ledger block the answering service had applied: the ledger state the answer was read from',
    required: true,
    schema: { type: 'integer', minimum: 0 },
    example: 1520,
  },
  'X-Block-Id': {
    description: 'Id of that block (64 hex characters); empty before the first block',
    required: true,
    schema: { type: 'string' },
    example: 'a3f0c1d2e4b5968778695a4b3c2d1e0fa3f0c1d2e4b5968778695a4b3c2d1e0f',
  },
  'X-Request-Id': {
    description:
      "The request's id, also in every log line about it: the client's own X-Request-Id when that is 1 to 128 letters, digits or `._:-`, else a new UUID",
    required: true,
    schema: { type: 'string' },
  },
  'Cache-Control': {
    description:
      '`no-cache` on GET answers (revalidate with If-None-Match), `no-store` on POST answers and on errors; ' +
      '`public, max-age=31536000, immutable` on GET answers read by `height` and `blockId` at a block too deep to be reverted',
    required: true,
    schema: { type: 'string' },
  },
  ETag: {
    description: "Tag of the answer's body, different per Content-Encoding; sent back in If-None-Match it gets 304 while the answer is unchanged",
    required: true,
    schema: { type: 'string' },
  },
  Vary: { description: '`Accept-Encoding`: how the body is encoded depends on it', schema: { type: 'string' } },
  'Content-Encoding': {
    description: '`br`, else `gzip`, on answers over 1 KB when the request accepts one; absent when the body is sent as it is',
    schema: { type: 'string', enum: ['br', 'gzip'] },
  },
  'Retry-After': {
    description: 'Seconds to wait before trying again',
    required: true,
    schema: { type: 'integer', minimum: 0 },
    example: RETRY_AFTER_SECONDS,
  },
  HeightRetryAfter: {
    description: 'On a height not reached yet: seconds to wait before asking again (1); absent on the other conflicts',
    schema: { type: 'integer', minimum: 0 },
    example: 1,
  },
};

const ANSWERED_HEADERS = ['X-Request-Id', 'Cache-Control'];

/** The error body with machine-readable members added (docs/behaviour.md section 12). */
function errorWith(members: Record<string, JsonSchema>): JsonSchema {
  return { allOf: [componentRef('schemas', 'Error'), { type: 'object', properties: members }] };
}
// Refused before a request is read at all: nothing but the error body and Cache-Control.
const REFUSED_HEADERS = ['Cache-Control'];

/**
 * The error answers of the services, by status, with the name of their component; `optionalHeaders`:
 * headers only some of its answers carry, by name, with the component that says when.
 */
const SERVICE_ERRORS: Record<number, ErrorResponseSpec & { name: string; optionalHeaders?: Record<string, string> }> = {
  400: {
    name: 'BadRequest',
    description: 'The request is malformed: broken HTTP framing, or no Host header in HTTP/1.1',
    headers: REFUSED_HEADERS,
    messages: { 'Malformed request': 'Bad Request', 'No Host header': 'Missing Host header' },
  },
  404: {
    name: 'NotFound',
    description: 'Nothing has this id; the message names what was looked for',
    headers: ANSWERED_HEADERS,
    messages: { 'Unknown asset': 'Asset not found', 'Unknown group': 'Group not found' },
  },
  408: {
    name: 'RequestTimeout',
    description: "The request, headers and body, did not arrive within the server's deadline (10 s unless configured)",
    headers: REFUSED_HEADERS,
    messages: { 'Slow client': 'Request Timeout' },
  },
  413: {
    name: 'PayloadTooLarge',
    description: `The body is over ${MAX_BODY_BYTES / 1024} KiB`,
    headers: ANSWERED_HEADERS,
    messages: { 'Body over the limit': `Payload content length greater than maximum allowed: ${MAX_BODY_BYTES}` },
  },
  422: {
    name: 'UnprocessableEntity',
    description: 'A path id, query parameter or body is invalid; the message names the first problem, path before query before body',
    headers: ANSWERED_HEADERS,
    messages: {
      'Malformed id': '"id" must only contain hexadecimal characters',
      'Id of the wrong length': '"id" length must be 64 characters long',
      'Limit out of range': '"limit" must be less than or equal to 100',
      'Unknown query parameter': '"color" is not allowed',
      'Body that is not JSON': 'Invalid request payload JSON format',
      'Height that is not a number': '"height" must be a number',
      'Height below 1': '"height" must be larger than or equal to 1',
      'Height that is not an integer': '"height" must be an integer',
      'Block id that is not hexadecimal': '"blockId" must only contain hexadecimal characters',
      'Block id of the wrong length': '"blockId" length must be 64 characters long',
      'Block id without a height': '"blockId" is not allowed without "height"',
      'Both minHeight and height': '"minHeight" is not allowed with "height"',
    },
  },
  409: {
    name: 'HeightConflict',
    description:
      'The `height` (or `minHeight`, after waiting 2 s) is above the newest height the area applied (`head`; with `Retry-After: 1`), ' +
      'the `blockId` is not the id of block `height` on the chain the area follows now (`blockId` names the one that is), ' +
      'or the block a cursor walk was reading at was reverted (`first` links to the first page at the newest height)',
    headers: ANSWERED_HEADERS,
    optionalHeaders: { 'Retry-After': 'HeightRetryAfter' },
    schema: errorWith({ head: { type: 'integer', minimum: 0 }, blockId: { type: 'string' }, first: { type: 'string' } }),
    messages: {
      'Height not reached yet': { message: 'height 1600 is not yet available; the area is at height 1520', members: { head: 1520 } },
      'Another block at the height': {
        message: `block ${'ab'.repeat(32)} is not at height 1500`,
        members: { blockId: 'a3f0c1d2e4b5968778695a4b3c2d1e0fa3f0c1d2e4b5968778695a4b3c2d1e0f' },
      },
    },
  },
  410: {
    name: 'HeightGone',
    description:
      "The `height` (or a cursor walk's) is below how far back the route reads: 10,000 blocks for point reads, 360 for lists and " +
      'searches unless configured (a service keeping no history reads at the newest height alone); `earliestHeight` is the oldest ' +
      'it reads at (a cursor walk also gets `first`, and so does one pinned below its `minHeight`, which is then `earliestHeight`)',
    headers: ANSWERED_HEADERS,
    schema: errorWith({ earliestHeight: { type: 'integer', minimum: 1 }, first: { type: 'string' } }),
    messages: { 'Height too old': { message: 'height 100 is no longer available; the earliest is 1161', members: { earliestHeight: 1161 } } },
  },
  431: {
    name: 'RequestHeaderFieldsTooLarge',
    description: "The URL or the headers are over the server's limit",
    headers: REFUSED_HEADERS,
    messages: { 'Headers over the limit': 'Request Header Fields Too Large' },
  },
  503: {
    name: 'ServiceUnavailable',
    description: 'A backing service is down, or the service is still replaying the ledger after a start; try again after Retry-After seconds',
    headers: ['Retry-After', ...ANSWERED_HEADERS],
    messages: {
      'Ledger replay in progress': 'The ledger is still being replayed, try again shortly',
      'Store unavailable': 'A backing service is unavailable, try again shortly',
    },
  },
};

const NOT_MODIFIED = {
  description: 'The answer is unchanged since the ETag sent in If-None-Match; no body',
  headers: headerRefs(['ETag', 'X-Block-Height', 'X-Block-Id', ...ANSWERED_HEADERS]),
};

const SUCCESS_HEADERS = {
  get: ['X-Block-Height', 'X-Block-Id', 'ETag', ...ANSWERED_HEADERS, 'Vary', 'Content-Encoding'],
  post: ['X-Block-Height', 'X-Block-Id', ...ANSWERED_HEADERS, 'Vary', 'Content-Encoding'],
};

/** What any route can answer besides its own `errors`: a GET can be revalidated (304), a POST body can be too large (413). */
function statusesOf(route: AnyRoute): number[] {
  const byMethod = route.method === 'get' ? [304] : [413];
  const history = route.history ? [409, 410] : [];
  return [...new Set([400, 408, 422, 431, 503, ...byMethod, ...(route.errors ?? []), ...history])];
}

/** The responses of one operation; `success` is the JSON schema of its 200 body. */
export function operationResponses(route: AnyRoute, success: JsonSchema) {
  const responses: Record<string, unknown> = {
    '200': { description: 'OK', headers: headerRefs(SUCCESS_HEADERS[route.method]), content: { 'application/json': { schema: success } } },
  };
  for (const status of statusesOf(route)) {
    const shared = SERVICE_ERRORS[status];
    if (status === 304) responses[status] = componentRef('responses', 'NotModified');
    else if (shared) responses[status] = componentRef('responses', shared.name);
    else responses[status] = errorResponse(status, { description: STATUS_CODES[status] ?? 'Error', headers: ANSWERED_HEADERS, messages: {} });
  }
  return responses;
}

/** Every shared response and header; the document keeps those its operations use. */
export function sharedResponseComponents() {
  const errors = Object.entries(SERVICE_ERRORS).map(([status, { name, optionalHeaders = {}, ...spec }]) => {
    const response = errorResponse(Number(status), spec);
    for (const [header, component] of Object.entries(optionalHeaders)) response.headers[header] = componentRef('headers', component);
    return [name, response];
  });
  return { responses: { NotModified: NOT_MODIFIED, ...Object.fromEntries(errors) }, headers: SERVICE_HEADERS };
}
