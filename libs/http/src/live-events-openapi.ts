import {
  componentRef,
  errorResponse,
  headerRefs,
  KEEP_ALIVE_INTERVAL_MS,
  LAST_EVENT_ID_QUERY_KEY,
  liveEventSchema,
  PER_CLIENT_RETRY_AFTER_SECONDS,
  streamUnavailableEventSchema,
  STREAM_RETRY_MS,
  type JsonSchema,
} from '@ledger-api/http-core';
import type { SchemaComponents } from './openapi-schema';

/** How an area's live stream appears in the OpenAPI document. */
export interface LiveEventsDocumentation {
  /** Where the area's paths start, e.g. `/nft/exchange`. */
  basePath: string;
  /** The tag the operation is listed under, e.g. `Exchange live events`. */
  tag: string;
}

/** The path of an area's live stream (docs/behaviour.md section 9). */
export const liveEventsPath = (basePath: string) => `${basePath}/events`;

/** `/nft/exchange` → `streamNftExchangeEvents`. */
function operationIdOf(basePath: string): string {
  const words = basePath.split(/[^A-Za-z0-9]+/).filter(Boolean);
  return `stream${words.map((word) => word[0].toUpperCase() + word.slice(1)).join('')}Events`;
}

const seconds = (milliseconds: number) => milliseconds / 1000;

const DESCRIPTION = `Server-Sent Events: one event per block this area commits, in commit order, each sent once the commit is stored (an
API answer read after it, through the same gateway, has an \`X-Block-Height\` of at least its height, or its height minus
one for a revert).

- A stream opens with \`retry: ${STREAM_RETRY_MS}\` (milliseconds to wait before reconnecting), then \`event: position\` with the
  area's current position.
- Then \`event: block.applied\` for each block applied and \`event: block.reverted\` for each block taken back.
- Every event has an \`id\`, opaque. Reconnect with the last one you received in \`Last-Event-ID\` and the stream goes on with
  every event after it, in order, none lost or repeated, from any gateway, for at least the area's last 10,000 events; no
  \`position\` is sent then. An id it cannot resume from (too old, from another read model, malformed) gets one
  \`event: reset\` with the current position, then live events: re-read what you need.
- While idle, a comment line (\`: keep-alive\`) comes at least every ${seconds(KEEP_ALIVE_INTERVAL_MS)} s, and no timeout closes the stream.
  When a server shuts down, after it has left the load balancers, its streams end with a short \`retry\`: reconnect and
  resume on another replica.
- A stream that cannot be served now is still a \`200\` stream, one that ends at once (browsers' EventSource retries it,
  and gives up on any other answer): \`retry\`, then \`event: unavailable\` with a \`StreamUnavailable\`
  \`{"reason", "retryAfter"}\` (and \`Retry-After\`, the same seconds). Reconnect after it with the same Last-Event-ID.
  That is the answer past 8 streams of one client address (retry after ${PER_CLIENT_RETRY_AFTER_SECONDS} s), past 10,000 streams of one
  gateway (both by default), while the gateway has no live feed of the area yet, while the area's service replays its
  read model, and while a server shuts down.
- The one query parameter is \`lastEventId\`, for clients that cannot set headers (the header wins when both are sent);
  any other is refused (422).

\`\`\`
retry: ${STREAM_RETRY_MS}

event: position
id: zKNGLcaJvsI3-2012
data: {"height":2000,"id":"4351b0cf…"}

event: block.applied
id: zKNGLcaJvsI3-2013
data: {"height":2001,"id":"136df0b8…","timestamp":{"epoch":124471592,"unix":1614572792,"human":"2021-03-01T04:26:32.000Z"},"transactions":["022c72da…"]}

: keep-alive
\`\`\`

A refused stream, whole:

\`\`\`
retry: ${PER_CLIENT_RETRY_AFTER_SECONDS * 1000}

event: unavailable
data: {"reason":"At most 8 live streams per client","retryAfter":${PER_CLIENT_RETRY_AFTER_SECONDS}}
\`\`\``;

const LAST_EVENT_ID = {
  name: 'Last-Event-ID',
  in: 'header',
  required: false,
  description:
    'The `id` of the last event received: the stream resumes after it. An id it cannot resume from gets `reset`. Browsers\u2019 EventSource sends it by itself when it reconnects',
  schema: { type: 'string' },
};

const LAST_EVENT_ID_QUERY = {
  name: LAST_EVENT_ID_QUERY_KEY,
  in: 'query',
  required: false,
  description: 'The same as `Last-Event-ID`, for clients that cannot set headers; the header wins when both are sent',
  schema: { type: 'string' },
};

const STREAM_HEADERS = {
  ...headerRefs(['X-Request-Id']),
  'Cache-Control': { description: '`no-store`: a stream is never cached', required: true, schema: { type: 'string', enum: ['no-store'] } },
  'X-Accel-Buffering': { description: '`no`: proxies pass each event on at once', schema: { type: 'string', enum: ['no'] } },
  'Retry-After': {
    description: 'Only on a stream that cannot be served now: the `retryAfter` seconds of its `unavailable` event',
    schema: { type: 'integer', minimum: 1 },
  },
};

const ANSWERED_HEADERS = ['X-Request-Id', 'Cache-Control'];

/**
 * The GET operation of an area's live stream. OpenAPI 3.1 has no way to say "a sequence of
 * events" (3.2's `itemSchema` does), so the `text/event-stream` schema describes one event, by
 * the fields of its frame, as the common convention for Server-Sent Events has it: `LiveEvent`,
 * a `oneOf` of one object per event name whose `event` is a `const` and whose `data` refers to
 * that event's named schema. Redocly's recommended rules accept it, Swagger UI shows it, and
 * openapi-typescript turns it into a union that `event` discriminates, which the client uses.
 */
export function liveEventsOperation({ basePath, tag }: LiveEventsDocumentation, schemas: SchemaComponents) {
  const event: JsonSchema = schemas.toJsonSchema(liveEventSchema);
  const unavailable: JsonSchema = schemas.toJsonSchema(streamUnavailableEventSchema);
  return {
    operationId: operationIdOf(basePath),
    summary: 'Live stream of the blocks this area commits',
    description: DESCRIPTION,
    tags: [tag],
    parameters: [LAST_EVENT_ID, LAST_EVENT_ID_QUERY],
    responses: {
      '200': {
        description:
          'The stream, as Server-Sent Events; each event is one `LiveEvent`, or, in a stream that cannot be served now, one `StreamUnavailableEvent` before it ends',
        headers: STREAM_HEADERS,
        content: { 'text/event-stream': { schema: { oneOf: [event, unavailable] } } },
      },
      '400': componentRef('responses', 'BadRequest'),
      '408': componentRef('responses', 'RequestTimeout'),
      '422': errorResponse(422, {
        description: 'A query parameter other than `lastEventId`: the message names the first one sent',
        headers: ANSWERED_HEADERS,
        messages: { 'Query parameter': '"from" is not allowed' },
      }),
      '431': componentRef('responses', 'RequestHeaderFieldsTooLarge'),
    },
  };
}
