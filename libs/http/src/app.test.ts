import { get, type Server } from 'node:http';
import { once } from 'node:events';
import { Writable } from 'node:stream';
import { createLogger, createMetrics } from '@ledger-api/observability';
import { z } from 'zod';
import { ApiError } from '@ledger-api/http-core';
import { createHttpApp } from './app';
import type { ServedLedgerState } from './types';
import type { CachedPage } from '@ledger-api/cache';
import { type PageCacheLike } from './page-cache';
import { defineRoute } from './route';

class StoreUnavailableError extends Error {
  override name = 'StoreUnavailableError';
  readonly status = 503;
}

class QueryTimeoutError extends Error {
  override name = 'QueryTimeoutError';
  readonly status = 503;
  readonly expose = true;
}

let ledger: ServedLedgerState = { height: 7, blockId: 'b7', commit: '7:a', dataCommit: '7:a' };
let replaying = false;
let renders = 0;
let searchRenders = 0;
let validations = 0;
const pages = new Map<string, CachedPage>();
const cache: PageCacheLike = { get: async (key, coding) => pages.get(key)?.[coding] ?? null, set: async (key, page) => void pages.set(key, page) };

const routes = [
  defineRoute({
    method: 'get',
    path: '/area/things/:id',
    summary: 'A thing',
    tags: ['things'],
    params: z.strictObject({ id: z.string() }),
    response: z.object({ data: z.object({ id: z.string(), renders: z.number() }) }),
    async handler({ params }) {
      if (params.id === 'missing') throw new ApiError(404, 'Thing not found');
      if (params.id === 'outage') throw new StoreUnavailableError('connect ECONNREFUSED 10.0.0.9:27017');
      if (params.id === 'slow') throw new QueryTimeoutError('The query took too long; narrow it or try again');
      if (params.id === 'bug') throw new Error('secret internal detail at /srv/app.js:12');
      renders += 1;
      return { data: { id: params.id, renders } };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/area/things/search',
    summary: 'Search things',
    tags: ['things'],
    body: z.strictObject({ name: z.string().optional() }),
    response: z.object({ data: z.unknown() }),
    handler: async ({ body }) => {
      searchRenders += 1;
      return { data: body };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/area/validated',
    summary: 'Counts the validations of its query; answers the height it was given',
    tags: ['things'],
    query: z.strictObject({
      q: z.string().transform((q) => {
        validations += 1;
        return q;
      }),
    }),
    response: z.object({ data: z.object({ q: z.string(), height: z.number() }) }),
    handler: async ({ query, height }) => ({ data: { q: query.q, height } }),
  }),
];

let server: Server;
let base: string;
const logLines: Record<string, unknown>[] = [];
const logSink = new Writable({ write: (chunk, _encoding, done) => done(void logLines.push(JSON.parse(String(chunk)))) });
const metrics = createMetrics('test', false);

beforeAll(async () => {
  const app = createHttpApp({
    area: 'area',
    info: { title: 'Test', version: '1.0.0' },
    routes,
    servedLedgerState: async () => ledger,
    unavailableReason: () => (replaying ? 'The ledger is still being replayed, try again shortly' : undefined),
    cache,
    logger: createLogger({ name: 'area', level: 'debug', destination: logSink }),
    metrics,
  });
  server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});

afterAll(() => new Promise<void>((done) => server.close(() => done())));

const post = (body: string, headers: Record<string, string> = {}) =>
  fetch(`${base}/area/things/search`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });

describe('the service HTTP app', () => {
  it('answers unknown paths and methods with the 404 body and the ledger headers', async () => {
    for (const response of [
      await fetch(`${base}/nope`),
      await fetch(`${base}/area/things/x`, { method: 'DELETE' }),
      // The search path is no thing's id: GET has no route there.
      await fetch(`${base}/area/things/search`),
    ]) {
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ statusCode: 404, error: 'Not Found', message: 'Not Found' });
      expect(response.headers.get('x-block-height')).toBe('7');
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(response.headers.get('x-request-id')).toBeTruthy();
    }
  });

  it('treats paths case-sensitively', async () => {
    expect((await fetch(`${base}/area/things/x`)).status).toBe(200);
    for (const path of ['/AREA/things/x', '/area/Things/x', '/LIVEZ']) {
      const response = await fetch(`${base}${path}`);
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ statusCode: 404, error: 'Not Found', message: 'Not Found' });
    }
  });

  it('answers API routes 503 with Retry-After while the ledger is replayed', async () => {
    replaying = true;
    try {
      const response = await fetch(`${base}/area/things/during-replay`);
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe('5');
      // Nothing was read from the half-built read model, so no height is claimed.
      expect(response.headers.get('x-block-height')).toBeNull();
      expect(await response.json()).toEqual({
        statusCode: 503,
        error: 'Service Unavailable',
        message: 'The ledger is still being replayed, try again shortly',
      });
    } finally {
      replaying = false;
    }
    expect((await fetch(`${base}/area/things/during-replay`)).status).toBe(200);
  });

  it('passes route errors through as their own status and message', async () => {
    const response = await fetch(`${base}/area/things/missing`);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ statusCode: 404, error: 'Not Found', message: 'Thing not found' });
  });

  it('answers 503 for a dependency outage and 500 for a bug, never leaking details', async () => {
    const outage = await fetch(`${base}/area/things/outage`);
    expect(outage.status).toBe(503);
    expect(outage.headers.get('retry-after')).toBe('5');
    const bug = await fetch(`${base}/area/things/bug`);
    expect(bug.status).toBe(500);
    // Neither answer was read from the ledger state the service stands at.
    expect([outage.headers.get('x-block-height'), bug.headers.get('x-block-height')]).toEqual([null, null]);
    const bodies = JSON.stringify([await outage.json(), await bug.json()]);
    expect(bodies).not.toMatch(/ECONNREFUSED|secret|\/srv|\.js/);
  });

  it('answers an error that exposes its message with that message, and 503 with Retry-After', async () => {
    const slow = await fetch(`${base}/area/things/slow`);
    expect(slow.status).toBe(503);
    expect(slow.headers.get('retry-after')).toBe('5');
    expect(await slow.json()).toEqual({ statusCode: 503, error: 'Service Unavailable', message: 'The query took too long; narrow it or try again' });
  });

  it('reads JSON bodies strictly: malformed is 422, over 64 KiB is 413, non-objects name "value"', async () => {
    expect(await (await post('{"name":')).json()).toMatchObject({ statusCode: 422, message: 'Invalid request payload JSON format' });
    expect((await post(JSON.stringify({ name: 'x'.repeat(70_000) }))).status).toBe(413);
    expect(await (await post('[1]')).json()).toMatchObject({ statusCode: 422, message: '"value" must be of type object' });
    expect(await (await post('')).json()).toMatchObject({ statusCode: 422, message: '"value" must be of type object' });
    expect(await (await post('{"$where":"1"}')).json()).toMatchObject({ statusCode: 422, message: '"$where" is not allowed' });
    expect(await (await post('{"name":"a"}')).json()).toEqual({ data: { name: 'a' } });
  });

  it('ignores a trailing slash, echoes a request id and answers If-None-Match with 304', async () => {
    const first = await fetch(`${base}/area/things/slash/`, { headers: { 'x-request-id': 'abc-123' } });
    expect(first.status).toBe(200);
    expect(first.headers.get('x-request-id')).toBe('abc-123');
    const etag = first.headers.get('etag') as string;
    // A plain conditional GET: fetch would add `Cache-Control: no-cache`, which rightly forces a full answer.
    const status = await new Promise<number | undefined>((resolve, reject) =>
      get(`${base}/area/things/slash`, { headers: { 'if-none-match': etag } }, (response) => resolve(response.resume().statusCode)).on(
        'error',
        reject,
      ),
    );
    expect(status).toBe(304);
  });

  it('serves cached pages until the ledger generation changes', async () => {
    const read = async () => ((await (await fetch(`${base}/area/things/cached`)).json()) as { data: { renders: number } }).data.renders;
    const first = await read();
    expect(await read()).toBe(first);
    ledger = { height: 8, blockId: 'b8', commit: '8:b', dataCommit: '8:b' };
    expect(await read()).toBe(first + 1);
    ledger = { height: 7, blockId: 'b7', commit: '7:a', dataCommit: '7:a' };
    expect(await read()).toBe(first);
  });

  it('validates a request only to render it: a cached page answers without validating it again', async () => {
    const before = validations;
    const first = await fetch(`${base}/area/validated?q=once`);
    expect(await first.json()).toEqual({ data: { q: 'once', height: 7 } });
    expect(first.headers.get('x-block-height')).toBe('7');
    expect((await fetch(`${base}/area/validated?q=once`)).status).toBe(200);
    expect(validations - before).toBe(1);
    for (let attempt = 0; attempt < 2; attempt += 1) {
      expect(await (await fetch(`${base}/area/validated?q=once&extra=1`)).json()).toMatchObject({
        statusCode: 422,
        message: '"extra" is not allowed',
      });
    }
  });

  it('hands the handler the height of the ledger state the answer is read from', async () => {
    ledger = { height: 9, blockId: 'b9', commit: '9:c', dataCommit: '9:c' };
    const answer = await fetch(`${base}/area/validated?q=height`);
    ledger = { height: 7, blockId: 'b7', commit: '7:a', dataCommit: '7:a' };
    expect(answer.headers.get('x-block-height')).toBe('9');
    expect(await answer.json()).toEqual({ data: { q: 'height', height: 9 } });
  });

  it('caches a search page under its body text', async () => {
    const before = searchRenders;
    expect(await (await post('{"name":"cached"}')).json()).toEqual({ data: { name: 'cached' } });
    expect(await (await post('{"name":"cached"}')).json()).toEqual({ data: { name: 'cached' } });
    expect(searchRenders - before).toBe(1);
    expect(await (await post('{ "name": "cached" }')).json()).toEqual({ data: { name: 'cached' } });
    expect(searchRenders - before).toBe(2);
    expect(await (await post('{"name":"cached","x":1}')).json()).toMatchObject({ statusCode: 422, message: '"x" is not allowed' });
  });

  it('serves its OpenAPI document with every route', async () => {
    const document = (await (await fetch(`${base}/openapi.json`)).json()) as { openapi: string; paths: Record<string, object> };
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.paths)).toEqual(['/area/things/{id}', '/area/things/search', '/area/validated']);
  });

  it('sends on a success, compressed, every header its document names for one', async () => {
    const document = (await (await fetch(`${base}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { responses: Record<string, { headers?: Record<string, unknown> }> }>>;
    };
    const documented = (path: string, method: string) => Object.keys(document.paths[path][method].responses['200'].headers ?? {});
    // Answers over 1 KB go out compressed, with the headers that come with compression.
    const large = 'x'.repeat(2_000);
    const answers = [
      [documented('/area/things/{id}', 'get'), await fetch(`${base}/area/things/${large}`, { headers: { 'accept-encoding': 'br' } })],
      [documented('/area/things/search', 'post'), await post(JSON.stringify({ name: large }), { 'accept-encoding': 'br' })],
    ] as const;
    for (const [headers, response] of answers) {
      expect(response.status).toBe(200);
      expect(headers.length).toBeGreaterThan(0);
      expect(headers.filter((name) => !response.headers.has(name))).toEqual([]);
    }
  });

  it('serves no probes and no metrics: they are on the admin port', async () => {
    for (const path of ['/livez', '/readyz', '/metrics']) {
      const response = await fetch(`${base}${path}`);
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ statusCode: 404, error: 'Not Found', message: 'Not Found' });
    }
  });

  it('logs every request in the shared shape', async () => {
    await fetch(`${base}/area/things/logged`, { headers: { 'x-request-id': 'log-1', 'user-agent': 'tests/1' } });
    expect(logLines.find((line) => line.reqId === 'log-1')).toEqual({
      level: 30,
      time: expect.any(String),
      service: 'area',
      name: 'area',
      msg: 'request completed',
      method: 'GET',
      url: '/area/things/logged',
      route: '/area/things/:id',
      statusCode: 200,
      responseTime: expect.any(Number),
      reqId: 'log-1',
      userAgent: 'tests/1',
    });
  });

  it('counts page cache hits and misses', async () => {
    const lookups = async (result: string) =>
      (await metrics.registry.getSingleMetric('page_cache_requests_total')?.get())?.values.find((value) => value.labels.result === result)?.value ??
      0;
    const [hits, misses] = [await lookups('hit'), await lookups('miss')];
    await fetch(`${base}/area/things/counted`);
    await fetch(`${base}/area/things/counted`);
    expect([(await lookups('hit')) - hits, (await lookups('miss')) - misses]).toEqual([1, 1]);
  });
});
