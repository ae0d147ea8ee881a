import { AsyncLocalStorage } from 'node:async_hooks';
import { once } from 'node:events';
import type { Server } from 'node:http';
import { createMetrics, silentLogger } from '@ledger-api/observability';
import { z } from 'zod';
import { createHttpApp } from './app';
import { defineRoute } from './route';

/** Stands in for a store's snapshot session: the id of the consistent read a piece of work runs in. */
const readScope = new AsyncLocalStorage<number>();
let scopesOpened = 0;
const positionReadIn: (number | undefined)[] = [];

const routes = [
  defineRoute({
    method: 'get',
    path: '/area/scope',
    summary: 'The consistent read the handler runs in',
    tags: ['things'],
    response: z.object({ data: z.object({ scope: z.number().nullable() }) }),
    handler: async () => ({ data: { scope: readScope.getStore() ?? null } }),
  }),
];

let server: Server;
let base: string;

beforeAll(async () => {
  const app = createHttpApp({
    area: 'area',
    info: { title: 'Test', version: '1.0.0' },
    routes,
    servedLedgerState: async () => {
      positionReadIn.push(readScope.getStore());
      return { height: 3, generation: '3' };
    },
    readiness: async () => ({ ready: true }),
    readConsistently: (work) => readScope.run(++scopesOpened, work),
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
      [1, 2, 3].map(() => fetch(`${base}/area/scope`).then((response) => response.json() as Promise<{ data: { scope: number } }>)),
    );
    const scopes = answers.map((answer) => answer.data.scope);
    expect(new Set(scopes).size).toBe(3);
    expect(scopes.every((scope) => typeof scope === 'number')).toBe(true);
    expect([...positionReadIn].sort()).toEqual([...scopes].sort());
  });

  it('leaves probes outside any consistent read', async () => {
    const opened = scopesOpened;
    expect((await fetch(`${base}/livez`)).status).toBe(200);
    expect(scopesOpened).toBe(opened);
  });
});
