import type { Server } from 'node:http';
import { once } from 'node:events';
import { createPageCache } from '@ledger-api/cache';
import { createHttpApp, createHttpServer } from '@ledger-api/http';
import { ProjectionRunner, type LedgerEvent } from '@ledger-api/ledger';
import { createMetrics, silentLogger } from '@ledger-api/observability';
import { createStore } from '@ledger-api/store';
import type { RecordingStore } from '@ledger-api/store/testing';
import type { AreaDefinition } from '../area';
import { runnerPositionReader } from '../position-reader';
import { storeWithHistory } from '../history';
import { CommitFeed } from '../commit-feed';

import { withRecordedRouteReads } from './batch-lookups';
import type { TestArea } from './types';

export * from './batch-lookups';
export * from './cursor-walks';
export * from './past-reads';
export * from './types';

/**
 * The real HTTP app of an area over an embedded store and in-process cache,
 * fed directly with ledger events: what service tests run against.
 */
export async function startTestArea(
  definition: AreaDefinition,
  events: LedgerEvent[] = [],
  options: { networkVersion?: number; historyBlocks?: number; listHistoryBlocks?: number; finalityDepth?: number } = {},
): Promise<TestArea> {
  const networkVersion = options.networkVersion ?? 23;
  const logger = silentLogger();
  const store = await createStore({ dbName: definition.area, logger });
  const windows = {
    HISTORY_BLOCKS: options.historyBlocks ?? 10_000,
    LIST_HISTORY_BLOCKS: options.listHistoryBlocks ?? 360,
    UNDO_RETENTION: 10_000,
    FINALITY_DEPTH: options.finalityDepth ?? 0,
  };
  const indexIds = windows.HISTORY_BLOCKS > 0;
  const runner = new ProjectionRunner({ store, projection: definition.projection({ networkVersion }), logger, indexIds });
  await runner.init();
  const positions = runnerPositionReader(runner);
  const feed = new CommitFeed({ store, runner, pollMs: 1000, logger });
  await feed.start();
  const read = storeWithHistory(store, windows, { feed, servedState: positions.servedState });
  const cache = createPageCache({ prefix: `${definition.area}:`, ttlSeconds: 60, maxEntries: 1000, logger });
  const app = createHttpApp({
    area: definition.area,
    info: definition.info,
    routes: definition.routes({
      store: read.store,
      networkVersion,
      package: { name: definition.packageName, currentVersion: definition.version, latestVersion: definition.version },
    }),
    servedLedgerState: positions.servedState,
    cache,
    history: read.history,
    logger,
    metrics: createMetrics(definition.area, false),
  });
  const server: Server = createHttpServer(app.callback()).listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  const baseUrl = `http://127.0.0.1:${port}`;
  let streamSeq = 0;
  const apply = async (batch: LedgerEvent[]) => {
    for (const event of batch) await runner.handle(event, ++streamSeq);
  };
  await apply(events);
  return {
    baseUrl,
    runner,
    apply,
    async request(method, path, body, headers = {}) {
      const response = await fetch(baseUrl + path, {
        method,
        headers: { ...(body !== undefined && { 'content-type': 'application/json' }), ...headers },
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, headers: Object.fromEntries(response.headers), body: text ? JSON.parse(text) : undefined };
    },
    async close() {
      feed.stop();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await cache.close();
      await store.close();
    },
  };
}

/** startTestArea, with every read the area's routes make written down: read `store.takeReads()` after a request. */
export async function startRecordedTestArea(
  definition: AreaDefinition,
  events: LedgerEvent[] = [],
): Promise<{ area: TestArea; store: RecordingStore }> {
  const recorded = withRecordedRouteReads(definition);
  const area = await startTestArea(recorded.definition, events);
  return { area, store: recorded.store() };
}
