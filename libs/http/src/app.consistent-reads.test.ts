import { AsyncLocalStorage } from 'node:async_hooks';
import { once } from 'node:events';
import type { Server } from 'node:http';
import { createMetrics, silentLogger } from '@ledger-api/observability';
import { z } from 'zod';
import { createHttpApp } from './app';
import type { CachedPage } from '@ledger-api/cache';
import { defineRoute } from './route';

/** Stands in for a store's snapshot session: the id of the consistent read a piece of work runs in. */
const readScope = new AsyncLocalStorage<number>();
let scopesOpened = 0;
const positionReadIn: (number | undefined)[] = [];

const routes = [
  defineRoute({
    method: 'get',
    path: '/area/scope/:request',
    summary: 'The consistent read the handler runs in',
    tags: ['things'],
    // Each request its own page: none is answered from the cache.
    params: z.strictObject({ request: z.string() }),
    response: z.object({ data: z.object({ scope: z.number().nullable() }) }),
    handler: async () => ({ data: { scope: readScope.getStore() ?? null } }),
  }),
  defineRoute({
    method: 'get',
    path: '/area/page',
    summary: 'A page that can be cached',
    tags: ['things'],
    response: z.object({ data: z.string() }),
    handler: async () => ({ data: 'page' }),
  }),
];
const pages = new Map<string, CachedPage>();

let server: Server;
let base: string;

beforeAll(async () => {
  const app = createHttpApp({
    area: 'area',
    info: { title: 'Test', version: '1.0.0' },
    routes,
    servedLedgerState: async () => {
      positionReadIn.push(readScope.getStore());
      return { height: 3, blockId: 'b3', commit: '3', dataCommit: '3' };
    },
    readConsistently: (work) => readScope.run(++scopesOpened, work),
    cache: { get: async (key, coding) => pages.get(key)?.[coding] ?? null, set: async (key, page) => void pages.set(key, page) },
    logger: silentLogger(),
    metrics: createMetrics('test', false),
  });
  server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});

afterAll(() => new Promise<void>((done) => server.close(() => done())));

describe('the service HTTP app over a store with consistent reads', () => {
  it('reads the ledger position and runs the handler of one request in one consistent read', async () => {
    const answers = await Promise.all(
      [1, 2, 3].map((request) => fetch(`${base}/area/scope/${request}`).then((response) => response.json() as Promise<{ data: { scope: number } }>)),
    );
    const scopes = answers.map((answer) => answer.data.scope);
    expect(new Set(scopes).size).toBe(3);
    expect(scopes.every((scope) => typeof scope === 'number')).toBe(true);
    expect([...positionReadIn].sort()).toEqual([...scopes].sort());
  });

  it('reads the ledger state once per request, for a page it renders and caches as for one it finds cached', async () => {
    const readsOfOneRequest = async () => {
      const before = positionReadIn.length;
      expect((await fetch(`${base}/area/page`)).status).toBe(200);
      return positionReadIn.length - before;
    };
    const cached = pages.size;
    expect(await readsOfOneRequest()).toBe(1);
    expect(pages.size).toBe(cached + 1);
    expect(await readsOfOneRequest()).toBe(1);
  });

  it('leaves the API document outside any consistent read', async () => {
    const opened = scopesOpened;
    expect((await fetch(`${base}/openapi.json`)).status).toBe(200);
    expect(scopesOpened).toBe(opened);
  });
});
