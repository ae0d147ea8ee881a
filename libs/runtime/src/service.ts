import type { Server } from 'node:http';
import { once } from 'node:events';
import { createPageCache, type PageCache } from '@ledger-api/cache';
import { createHttpApp, createHttpServer, type Readiness } from '@ledger-api/http';
import { ProjectionRunner, Projector, type LedgerSource } from '@ledger-api/ledger';
import { createMetrics, type Logger, type Metrics } from '@ledger-api/observability';
import { createStore, type Store } from '@ledger-api/store';
import type { AreaDefinition } from './area';
import type { ServiceConfig } from './config';
import { ledgerInput } from './ledger-input';
import { runnerPositionReader, storedPositionReader, type PositionReader } from './position-reader';

export interface RunningService {
  readonly port: number;
  readonly store: Store;
  readonly projector?: Projector;
  close(): Promise<void>;
}

/** What a caller may hand in instead of having it built from the configuration. */
export interface ServiceDependencies {
  source?: LedgerSource;
  /** The read model's store; the caller owns it (closing the service leaves it open), and may share it between services. */
  store?: Store;
}

async function startProjector(
  definition: AreaDefinition,
  config: ServiceConfig,
  store: Store,
  logger: Logger,
  metrics: Metrics,
  given: ServiceDependencies,
) {
  const projection = definition.projection({ networkVersion: config.NETWORK_VERSION });
  const runner = new ProjectionRunner({ store, projection, logger, undoRetention: config.UNDO_RETENTION });
  const { source, lease } = given.source ? { source: given.source, lease: undefined } : ledgerInput(definition.area, config, store.kind, logger);
  const projector = source ? new Projector({ runner, source, lease, logger }) : undefined;
  // Starting a projector loads the read model; without a ledger source it is loaded here.
  await (projector ? projector.start() : runner.init());
  const height = metrics.gauge('ledger_block_height', 'Height of the last applied ledger block');
  height.set(runner.position.height);
  runner.onChange((position) => height.set(position.height));
  return { runner, projector };
}

function readinessCheck(store: Store, projector: Projector | undefined, runsProjector: boolean) {
  return async (): Promise<Readiness> => {
    await store.ping();
    if (!runsProjector || !projector) return { ready: true };
    const status = projector.status();
    return { ready: projector.ready(), projector: status.state, height: status.position.height, ...(status.fault && { fault: status.fault }) };
  };
}

/**
 * Until its projector has caught up once, a process serves no API answer: after
 * a restart its read model is still being replayed (an embedded store starts
 * empty). A projector that later falls behind or faults keeps serving its
 * last consistent state, and readiness says so.
 */
function replayGate(projector: Projector | undefined): (() => string | undefined) | undefined {
  if (!projector) return undefined;
  let caughtUpOnce = false;
  return () => {
    caughtUpOnce ||= projector.ready();
    return caughtUpOnce ? undefined : 'The ledger is still being replayed, try again shortly';
  };
}

/**
 * Pages depend on the code that rendered them and on the network's address
 * version as well as on the ledger position, so replicas of another release
 * sharing the Redis never serve each other's pages during a rolling upgrade.
 */
export function cachePrefix(definition: AreaDefinition, config: Pick<ServiceConfig, 'NETWORK_VERSION'>): string {
  return `ledger-api:${definition.area}:${definition.version}:${config.NETWORK_VERSION}:`;
}

/** Starts one service process in its configured role and returns a handle to stop it gracefully. */
export async function startService(
  definition: AreaDefinition,
  config: ServiceConfig,
  logger: Logger,
  given: ServiceDependencies = {},
): Promise<RunningService> {
  const metrics = createMetrics(definition.area);
  if (config.ROLE === 'api' && !config.MONGO_URL && !given.store) {
    // An embedded store of its own would hold nothing: no projector writes to it.
    throw new Error('ROLE=api needs MONGO_URL or a store handed in');
  }
  const store = given.store ?? (await createStore({ mongoUrl: config.MONGO_URL, dbName: config.MONGO_DB, logger }));
  const runsProjector = config.ROLE !== 'api';
  const { runner, projector } = runsProjector ? await startProjector(definition, config, store, logger, metrics, given) : {};
  const positions: PositionReader = runner ? runnerPositionReader(runner) : storedPositionReader(store);
  const servesApi = config.ROLE !== 'projector';
  const cache: PageCache | undefined = servesApi
    ? createPageCache({
        redisUrl: config.REDIS_URL,
        prefix: cachePrefix(definition, config),
        ttlSeconds: config.CACHE_TTL_SECONDS,
        maxEntries: config.CACHE_MAX_ENTRIES,
        logger,
      })
    : undefined;
  const pkg = { name: definition.packageName, currentVersion: definition.version, latestVersion: config.LATEST_VERSION ?? definition.version };
  const routes = servesApi
    ? definition.routes({ store, networkVersion: config.NETWORK_VERSION, ledgerPosition: positions.position, package: pkg })
    : [];
  const app = createHttpApp({
    area: definition.area,
    info: definition.info,
    routes,
    servedLedgerState: positions.servedState,
    readiness: readinessCheck(store, projector, runsProjector),
    unavailableReason: replayGate(projector),
    readConsistently: (work) => store.readConsistently(work),
    cache,
    logger,
    metrics,
  });
  const server: Server = createHttpServer(app.callback(), {
    requestTimeoutMs: config.REQUEST_TIMEOUT_MS,
    keepAliveTimeoutMs: config.KEEP_ALIVE_TIMEOUT_MS,
  }).listen(config.PORT, config.HOST);
  await once(server, 'listening');
  const address = server.address();
  logger.info({ role: config.ROLE, port: config.PORT, store: store.kind, cache: cache?.kind }, 'service started');
  return {
    port: typeof address === 'object' && address ? address.port : config.PORT,
    store,
    projector,
    async close() {
      // Stop taking requests and ledger events first, then let go of the backing services.
      await Promise.all([new Promise<void>((resolve) => server.close(() => resolve())), projector?.stop()]);
      await cache?.close();
      if (!given.store) await store.close();
    },
  };
}
