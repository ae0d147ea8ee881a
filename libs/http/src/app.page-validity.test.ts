import { once } from 'node:events';
import type { Server } from 'node:http';
import { createPageCache, type PageCache } from '@ledger-api/cache';
import { UNTIL_DATA_CHANGES, VALIDITY_HEADER } from '@ledger-api/http-core';
import { createMetrics, silentLogger } from '@ledger-api/observability';
import { waitFor } from '@ledger-api/test-kit';
import { z } from 'zod';
import { createHttpApp } from './app';
import { defineRoute } from './route';
import type { ServedLedgerState } from './types';

/**
 * How long a page stays in a service's page cache: a page holds until a block changes the
 * area's data, so blocks that write nothing to the area (and their reverts) leave it cached,
 * while its X-Block-Height and X-Block-Id name the head it is sent at. A page that reads the
 * height itself (an expiry flag, a keyset walk's links) holds for its block only. Alike for
 * each page cache a service runs with: the in-process LRU, Redis, Redis behind a memory tier.
 */

let renders = 0;

const routes = [
  defineRoute({
    method: 'get',
    path: '/area/things',
    summary: 'Things',
    tags: ['things'],
    query: z.strictObject({ expired: z.string().optional(), cursor: z.string().optional() }),
    response: z.object({ data: z.object({ renders: z.number() }) }),
    expiryKeys: ['expired'],
    async handler() {
      renders += 1;
      return { data: { renders } };
    },
  }),
];

/** A commit id's text, as the runtime forms a served state's generations (see formatCommitId). */
function servedState(height: number, generation: number, changedAt: number): ServedLedgerState {
  const commit = changedAt === generation ? `model-${generation}` : `model-${generation}.${changedAt}`;
  return { height, blockId: `b${height}`.padEnd(64, '0'), commit, dataCommit: `model-${changedAt}` };
}

const CACHES: Array<[string, () => PageCache]> = [
  ['the in-process LRU', () => createPageCache({ prefix: 'unused', ttlSeconds: 60, maxEntries: 100, logger: silentLogger() })],
  [
    'Redis',
    () =>
      createPageCache({
        redisUrl: 'redis://127.0.0.1:6379',
        prefix: `page-validity-${process.pid}-${Date.now()}:`,
        ttlSeconds: 60,
        maxEntries: 100,
        logger: silentLogger(),
      }),
  ],
  [
    'Redis behind a memory tier',
    () =>
      createPageCache({
        redisUrl: 'redis://127.0.0.1:6379',
        prefix: `page-validity-tiered-${process.pid}-${Date.now()}:`,
        ttlSeconds: 60,
        maxEntries: 100,
        memoryBytes: 1_000_000,
        logger: silentLogger(),
      }),
  ],
];

describe.each(CACHES)('the page cache on %s', (_name, createCache) => {
  let state: ServedLedgerState;
  let cache: PageCache;
  let server: Server;
  let base: string;

  beforeAll(async () => {
    cache = createCache();
    // Redis connects in the background, and drops what is stored before: the first page would not be kept.
    const probe = { etag: '"probe"', body: Buffer.from('{}') };
    const page = {
      br: { ...probe, encoding: 'br' as const },
      gzip: { ...probe, encoding: 'gzip' as const },
      identity: { ...probe, encoding: 'identity' as const },
    };
    await waitFor(async () => {
      await cache.set('probe', page);
      return (await cache.get('probe', 'identity')) !== null;
    }, 'the page cache to keep a page');
    const app = createHttpApp({
      area: 'area',
      info: { title: 'Test', version: '1.0.0' },
      routes,
      servedLedgerState: async () => state,
      cache,
      logger: silentLogger(),
      metrics: createMetrics('test', false),
    });
    server = app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });

  afterAll(async () => {
    await new Promise<void>((done) => server.close(() => done()));
    await cache.close();
  });

  beforeEach(() => {
    state = servedState(7, 1, 1);
  });

  async function ask(path = '/area/things') {
    const answer = await fetch(`${base}${path}`);
    const { data } = (await answer.json()) as { data: { renders: number } };
    const header = (name: string) => answer.headers.get(name);
    return {
      renders: data.renders,
      height: header('x-block-height'),
      blockId: header('x-block-id'),
      etag: header('etag'),
      validity: header(VALIDITY_HEADER),
    };
  }

  it('keeps a page across a block that did not change the area, sent with the new head, and drops it at one that did', async () => {
    const first = await ask();
    expect(first).toMatchObject({ height: '7', blockId: state.blockId, validity: UNTIL_DATA_CHANGES });

    state = servedState(8, 2, 1);
    const kept = await ask();
    expect(kept).toEqual({ ...first, height: '8', blockId: state.blockId });

    state = servedState(9, 3, 3);
    const dropped = await ask();
    expect(dropped.renders).toBe(first.renders + 1);
    expect(dropped.height).toBe('9');
    expect(await ask()).toEqual(dropped);
  });

  it('never reopens the page of an earlier state after a revert that changed the area, and keeps it across one that did not', async () => {
    state = servedState(20, 10, 10);
    const before = await ask();
    state = servedState(21, 11, 11);
    const applied = await ask();
    // The revert of block 21 puts the data of generation 10 back, under a generation never used before.
    state = servedState(20, 12, 12);
    const reverted = await ask();
    expect([applied.renders, reverted.renders]).toEqual([before.renders + 1, before.renders + 2]);
    // Block 21 again, with nothing for the area this time, and its revert: the page holds across both.
    state = servedState(21, 13, 12);
    expect(await ask()).toEqual({ ...reverted, height: '21', blockId: state.blockId });
    state = servedState(20, 14, 12);
    expect(await ask()).toEqual({ ...reverted, height: '20', blockId: state.blockId });
  });

  it.each(['?expired=true', '?cursor='])('keeps a page that reads the height itself (%s) for its block only', async (query) => {
    state = servedState(30, 20, 20);
    const first = await ask(`/area/things${query}`);
    expect(first.validity).toBeNull();
    expect(await ask(`/area/things${query}`)).toEqual(first);
    state = servedState(31, 21, 20);
    const next = await ask(`/area/things${query}`);
    expect(next).toMatchObject({ renders: first.renders + 1, height: '31' });
  });
});
