import { once } from 'node:events';
import type { Server } from 'node:http';
import { MemoryPageCache } from '@ledger-api/cache';
import { createHttpApp, defineRoute } from '@ledger-api/http';
import { POSITION_COLLECTION, storedLedgerStateWrite } from '@ledger-api/ledger';
import { createMetrics, silentLogger } from '@ledger-api/observability';
import { EmbeddedStore } from '@ledger-api/store';
import { RecordingStore } from '@ledger-api/store/testing';
import { z } from 'zod';
import { storedPositionReader } from './position-reader';

/** An api replica's position reads: the stored position document is read once per request answered from the page cache. */
describe('storedPositionReader in an api app', () => {
  let store: RecordingStore;
  let server: Server;
  let base: string;

  beforeAll(async () => {
    const embedded = new EmbeddedStore();
    await embedded.applyWrites([
      storedLedgerStateWrite({
        position: { height: 5, blockId: 'b5', streamSeq: 5 },
        generation: 9,
        changedAt: 9,
        commitInFlight: false,
        readModel: 'rm',
        fence: 0,
      }),
    ]);
    store = new RecordingStore(embedded);
    const positions = storedPositionReader(store);
    const route = defineRoute({
      method: 'get',
      path: '/things',
      summary: 'Things',
      tags: ['things'],
      response: z.object({ data: z.array(z.number()) }),
      handler: async () => ({ data: [1, 2, 3] }),
    });
    const app = createHttpApp({
      area: 'area',
      info: { title: 'Test', version: '1.0.0' },
      routes: [route],
      servedLedgerState: positions.servedState,
      cache: new MemoryPageCache({ maxEntries: 10, ttlSeconds: 60 }),
      logger: silentLogger(),
      metrics: createMetrics('area', false),
    });
    server = app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });

  afterAll(() => new Promise<void>((done) => server.close(() => done())));

  const positionReadsOf = async (path: string) => {
    store.takeReads();
    const response = await fetch(`${base}${path}`);
    expect(response.headers.get('x-block-height')).toBe('5');
    return store.takeReads().filter(({ collection }) => collection === POSITION_COLLECTION).length;
  };

  it('reads the position once for a cached page, and once more after a render to check no block was written meanwhile', async () => {
    expect(await positionReadsOf('/things')).toBe(2);
    expect(await positionReadsOf('/things')).toBe(1);
    expect(await positionReadsOf('/things')).toBe(1);
  });
});

/**
 * A rebuild replays the same ledger into a new database: the same position under the same
 * generation. Pages cached by the old read model's code in a shared Redis must not answer for it.
 */
describe('the served state of two read models at the same position and generation', () => {
  it('differs, so their pages are kept under different keys', async () => {
    const servedOf = async (readModel: string) => {
      const store = new EmbeddedStore();
      const position = { height: 5, blockId: 'b5', streamSeq: 5 };
      await store.applyWrites([storedLedgerStateWrite({ position, generation: 9, changedAt: 9, commitInFlight: false, readModel, fence: 0 })]);
      return storedPositionReader(store).servedState();
    };
    const [old, rebuilt] = await Promise.all([servedOf('oldModel'), servedOf('newModel')]);
    expect(old.height).toBe(rebuilt.height);
    expect(old.commit).not.toBe(rebuilt.commit);
    expect(rebuilt.commit).toBe('newModel-9');
  });
});
