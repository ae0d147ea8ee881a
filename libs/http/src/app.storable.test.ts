import { once } from 'node:events';
import type { Server } from 'node:http';
import type { CachedPage } from '@ledger-api/cache';
import { ApiError, STORABLE, STORABLE_HEADER } from '@ledger-api/http-core';
import { createMetrics, silentLogger } from '@ledger-api/observability';
import { z } from 'zod';
import { createHttpApp } from './app';
import { batchLookupRoute } from './batch-route';
import type { PageCacheLike } from './page-cache';
import { defineRoute } from './route';

/**
 * Which answers the platform's caches may keep, as the service says it: search and by-id
 * answers are marked storable and kept in the page cache, batch answers and errors never are.
 */

const A = 'a'.repeat(64);
const B = 'b'.repeat(64);

const pages = new Map<string, CachedPage>();
const cache: PageCacheLike = { get: async (key, coding) => pages.get(key)?.[coding] ?? null, set: async (key, page) => void pages.set(key, page) };
let reads = 0;

const thing = z.object({ id: z.string() }).meta({ id: 'Thing' });

const routes = [
  defineRoute({
    method: 'get',
    path: '/area/things/:id',
    summary: 'A thing',
    tags: ['things'],
    params: z.strictObject({ id: z.string() }),
    response: z.object({ data: thing }),
    async handler({ params }) {
      reads += 1;
      if (params.id === 'missing') throw new ApiError(404, 'Thing not found');
      return { data: { id: params.id } };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/area/things/search',
    summary: 'Search things',
    tags: ['things'],
    body: z.strictObject({ id: z.string() }),
    response: z.object({ data: z.array(thing) }),
    async handler({ body }) {
      reads += 1;
      return { data: [{ id: body.id }] };
    },
  }),
  batchLookupRoute({
    path: '/area/things/batch',
    byIdPath: '/area/things/{id}',
    operationId: 'batchGetThings',
    summary: 'Things by their ids',
    tags: ['things'],
    item: thing,
    async find(ids) {
      reads += 1;
      return new Map(ids.map((id) => [id, { id }]));
    },
    present: (record) => record,
  }),
];

const metrics = createMetrics('test', false);
let server: Server;
let base: string;

beforeAll(async () => {
  const app = createHttpApp({
    area: 'area',
    info: { title: 'Test', version: '1.0.0' },
    routes,
    servedLedgerState: async () => ({ height: 7, blockId: 'b7', commit: '7:a', dataCommit: '7:a' }),
    cache,
    logger: silentLogger(),
    metrics,
  });
  server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});

afterAll(() => new Promise<void>((done) => server.close(() => done())));

beforeEach(() => {
  pages.clear();
  reads = 0;
});

const post = (path: string, body: unknown) =>
  fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

async function lookups(): Promise<number> {
  const values = (await metrics.registry.getSingleMetric('page_cache_requests_total')?.get())?.values ?? [];
  return values.reduce((sum, { value }) => sum + value, 0);
}

describe('storable answers', () => {
  it('never marks nor keeps a batch answer: the same batch again is read again, with no cache lookup', async () => {
    const lookupsBefore = await lookups();
    const answers = [await post('/area/things/batch', { ids: [A, B] }), await post('/area/things/batch', { ids: [A, B] })];
    expect(answers.map((answer) => [answer.status, answer.headers.get(STORABLE_HEADER)])).toEqual([
      [200, null],
      [200, null],
    ]);
    expect(await answers[1].json()).toEqual({ data: [{ id: A }, { id: B }] });
    expect(reads).toBe(2);
    expect(pages.size).toBe(0);
    expect((await lookups()) - lookupsBefore).toBe(0);
  });

  it('marks a search answer and a by-id answer storable and keeps each once', async () => {
    const searches = [await post('/area/things/search', { id: A }), await post('/area/things/search', { id: A })];
    const byId = [await fetch(`${base}/area/things/${A}`), await fetch(`${base}/area/things/${A}`)];
    expect([...searches, ...byId].map((answer) => [answer.status, answer.headers.get(STORABLE_HEADER)])).toEqual(Array(4).fill([200, STORABLE]));
    expect(reads).toBe(2);
    expect(pages.size).toBe(2);
  });

  it('never marks an error answer of a storable route', async () => {
    const refused = [
      await fetch(`${base}/area/things/missing`),
      await post('/area/things/search', { id: A, more: 1 }),
      await post('/area/things/batch', {}),
    ];
    expect(refused.map((answer) => [answer.status, answer.headers.get(STORABLE_HEADER)])).toEqual([
      [404, null],
      [422, null],
      [422, null],
    ]);
    expect(pages.size).toBe(0);
  });
});
