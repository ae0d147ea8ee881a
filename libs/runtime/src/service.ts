import type { Server } from 'node:http';
import { once } from 'node:events';
import { createPageCache, type PageCache } from '@ledger-api/cache';
import { createHttpApp, createHttpServer, drainServer, LiveStreams, startAdminServer } from '@ledger-api/http';
import { ProjectionRunner, Projector, reportsBacklog, type LedgerSource, type ProjectorLease } from '@ledger-api/ledger';
import { createMetrics, type Logger, type Metrics } from '@ledger-api/observability';
import { createStore, type Store } from '@ledger-api/store';
import type { AreaDefinition } from './area';
import type { ServiceConfig } from './config';
import { CommitFeed } from './commit-feed';
import { ledgerInput } from './ledger-input';
import { commitFeedEvents } from './live-event-source';
import { LedgerMetrics, sharedBacklog } from './ledger-metrics';
import { runnerPositionReader, storedPositionReader, type PositionReader } from './position-reader';
import { ProjectorStateRecorder } from './projector-record';
import { readinessCheck } from './readiness';
import { storeWithHistory } from './history';

export interface RunningService {
  readonly port: number;
  /** Where /livez, /readyz and /metrics answer. */
  readonly adminPort: number;
  readonly store: Store;
  readonly projector?: Projector;
  close(): Promise<void>;
}

/** What a caller may hand in instead of having it built from the configuration. */
export interface ServiceDependencies {
  source?: LedgerSource;
  /** The read model's store; the caller owns it (closing the service leaves it open), and may share it between services. */
  store?: Store;
  /** With a source handed in: the lease it is followed under, shared with projectors of the same store. */
  lease?: ProjectorLease;
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
  const ledgerMetrics = new LedgerMetrics(metrics);
  const runner = new ProjectionRunner({
    store,
    projection,
    logger,
    undoRetention: config.UNDO_RETENTION,
    commitLogRetention: config.EVENTS_HISTORY,
    indexIds: config.HISTORY_BLOCKS > 0,
    observer: ledgerMetrics,
    guardDocuments: config.NODE_ENV !== 'production',
  });
  const { source, lease } = given.source ? { source: given.source, lease: given.lease } : ledgerInput(definition.area, config, store.kind, logger);
  const recorder = source && new ProjectorStateRecorder(store, logger);
  const projector = source && new Projector({ runner, source, lease, logger, observer: recorder });
  // Starting a projector loads the read model; without a ledger source it is loaded here.
  await (projector ? projector.start() : runner.init());
  const backlog = source && reportsBacklog(source) ? sharedBacklog(source) : undefined;
  ledgerMetrics.follow(runner, projector, backlog);
  return { runner, projector, backlog, recorder };
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
    // Standing by, it serves the shared store the lease holder keeps, whose readiness /readyz reports.
    caughtUpOnce ||= projector.ready() || standingBy(projector);
    return caughtUpOnce ? undefined : 'The ledger is still being replayed, try again shortly';
  };
}

function standingBy(projector: Projector): boolean {
  return projector.status().state === 'standby';
}

/**
 * Where answers take their ledger position from: the runner's own state in a
 * process that runs the projector, except while it stands by for the lease.
 * Another process writes the shared store then, and this one serves what is
 * stored there, as an api replica does.
 */
function positionReader(store: Store, runner: ProjectionRunner | undefined, projector: Projector | undefined): PositionReader {
  const stored = storedPositionReader(store);
  if (!runner) return stored;
  const own = runnerPositionReader(runner);
  if (!projector) return own;
  const current = () => (standingBy(projector) ? stored : own);
  return { position: () => current().position(), servedState: () => current().servedState() };
}

/** The area's live stream, fed by the commits of its read model: told at once by its own runner, else polling the store. */
async function startLiveEvents(
  definition: AreaDefinition,
  config: ServiceConfig,
  store: Store,
  runner: ProjectionRunner | undefined,
  logger: Logger,
) {
  const feed = new CommitFeed({ store, runner, pollMs: config.COMMIT_POLL_MS, logger });
  await feed.start();
  const streams = new LiveStreams({ keepAliveMs: config.EVENTS_KEEP_ALIVE_MS });
  return { basePath: definition.basePath, tag: definition.eventsTag, source: commitFeedEvents(feed), streams, feed };
}

/**
 * Pages depend on the code that rendered them and on the network's address
 * version as well as on the ledger position, so replicas of another release
 * sharing the Redis never serve each other's pages during a rolling upgrade.
 */
export function cachePrefix(definition: AreaDefinition, config: Pick<ServiceConfig, 'NETWORK_VERSION'>): string {
  return `ledger-api:${definition.area}:${definition.version}:${config.NETWORK_VERSION}:`;
}

/** The read model's store: the one handed in, else MongoDB, else an embedded store of the process's own. */
async function openStore(config: ServiceConfig, logger: Logger, given: ServiceDependencies): Promise<Store> {
  if (config.ROLE === 'api' && !config.MONGO_URL && !given.store) {
    // An embedded store of its own would hold nothing: no projector writes to it.
    throw new Error('ROLE=api needs MONGO_URL or a store handed in');
  }
  return given.store ?? (await createStore({ mongoUrl: config.MONGO_URL, dbName: config.MONGO_DB, logger }));
}

function pageCacheOf(definition: AreaDefinition, config: ServiceConfig, logger: Logger, metrics: Metrics): PageCache {
  return createPageCache({
    redisUrl: config.REDIS_URL,
    prefix: cachePrefix(definition, config),
    ttlSeconds: config.CACHE_TTL_SECONDS,
    maxEntries: config.CACHE_MAX_ENTRIES,
    memoryBytes: config.CACHE_MEMORY_MB * 1024 * 1024,
    logger,
    metrics,
  });
}

/** What the HTTP app of a process is built from besides its definition and configuration. */
interface AppParts {
  store: Store;
  runner?: ProjectionRunner;
  projector?: Projector;
  positions: PositionReader;
  logger: Logger;
  metrics: Metrics;
}

/** The process's HTTP app: a process that serves the API gets the area's routes, a page cache and the live stream. */
async function httpAppOf(definition: AreaDefinition, config: ServiceConfig, { store, runner, projector, positions, logger, metrics }: AppParts) {
  const servesApi = config.ROLE !== 'projector';
  const cache = servesApi ? pageCacheOf(definition, config, logger, metrics) : undefined;
  const liveEvents = servesApi ? await startLiveEvents(definition, config, store, runner, logger) : undefined;
  const pkg = { name: definition.packageName, currentVersion: definition.version, latestVersion: config.LATEST_VERSION ?? definition.version };
  const read = liveEvents && storeWithHistory(store, config, { feed: liveEvents.feed, servedState: positions.servedState });
  const routes = read ? definition.routes({ store: read.store, networkVersion: config.NETWORK_VERSION, package: pkg }) : [];
  const app = createHttpApp({
    area: definition.area,
    info: definition.info,
    routes,
    servedLedgerState: positions.servedState,
    unavailableReason: replayGate(projector),
    readConsistently: store.atomic ? (work) => store.readConsistently(work) : undefined,
    cache,
    history: read?.history,
    liveEvents,
    logger,
    metrics,
  });
  return { app, cache, liveEvents };
}

async function listenApi(callback: Parameters<typeof createHttpServer>[0], config: ServiceConfig): Promise<Server> {
  const server = createHttpServer(callback, { requestTimeoutMs: config.REQUEST_TIMEOUT_MS, keepAliveTimeoutMs: config.KEEP_ALIVE_TIMEOUT_MS });
  server.listen(config.PORT, config.HOST);
  await once(server, 'listening');
  return server;
}

/** What a running process lets go of when it stops, in the order it lets go. */
interface ClosingParts {
  server: Server;
  admin: { close(): Promise<void> };
  projector?: Projector;
  recorder?: ProjectorStateRecorder;
  cache?: PageCache;
  liveEvents?: { streams: LiveStreams; feed: CommitFeed };
  /** The store, when the process opened it (a store handed in stays open). */
  ownStore?: Store;
}

/**
 * Stops taking requests and ledger events first, then lets go of the backing services. Live
 * streams never end by themselves: once the delay has taken the process out of the load
 * balancers (/readyz says 503 from the signal on), they end with a short retry and their
 * clients reconnect to another replica and resume there.
 */
async function closeService(config: ServiceConfig, { server, admin, projector, recorder, cache, liveEvents, ownStore }: ClosingParts): Promise<void> {
  const endLiveEvents = () => {
    liveEvents?.streams.endAll();
    liveEvents?.feed.stop();
  };
  const drain = {
    delayMs: config.SHUTDOWN_DELAY_MS,
    drainMs: config.SHUTDOWN_DRAIN_MS,
    deadlineMs: config.SHUTDOWN_TIMEOUT_MS - 500,
    onDelayEnd: endLiveEvents,
  };
  await Promise.all([drainServer(server, drain), projector?.stop()]);
  // Probes answer until the API has drained: a liveness probe failing meanwhile would kill the process.
  await admin.close();
  await recorder?.settled();
  await cache?.close();
  await ownStore?.close();
}

/** Starts one service process in its configured role and returns a handle to stop it gracefully. */
export async function startService(
  definition: AreaDefinition,
  config: ServiceConfig,
  logger: Logger,
  given: ServiceDependencies = {},
): Promise<RunningService> {
  const metrics = createMetrics(definition.area);
  const store = await openStore(config, logger, given);
  const runsProjector = config.ROLE !== 'api';
  const { runner, projector, backlog, recorder } = runsProjector ? await startProjector(definition, config, store, logger, metrics, given) : {};
  const positions = positionReader(store, runner, projector);
  const { app, cache, liveEvents } = await httpAppOf(definition, config, { store, runner, projector, positions, logger, metrics });
  const server = await listenApi(app.callback(), config);
  const admin = await startAdminServer({
    readiness: readinessCheck({ store, runner, projector, backlog, maxLagEvents: config.READY_MAX_LAG_EVENTS }),
    metrics,
    port: config.ADMIN_PORT,
    host: config.HOST,
  });
  const address = server.address();
  logger.info({ role: config.ROLE, port: config.PORT, adminPort: config.ADMIN_PORT, store: store.kind, cache: cache?.kind }, 'service started');
  return {
    port: typeof address === 'object' && address ? address.port : config.PORT,
    adminPort: admin.port,
    store,
    projector,
    close: () => closeService(config, { server, admin, projector, recorder, cache, liveEvents, ownStore: given.store ? undefined : store }),
  };
}
