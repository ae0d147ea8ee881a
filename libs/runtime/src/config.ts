import { env } from '@ledger-api/config';
import { DEFAULT_KEEP_ALIVE_TIMEOUT_MS, DEFAULT_REQUEST_TIMEOUT_MS } from '@ledger-api/http';
import { checkNatsEnvironment, natsEnvironment } from '@ledger-api/ledger';
import { z } from 'zod';

export const ROLES = ['api', 'projector', 'all'] as const;
export type Role = (typeof ROLES)[number];

/** The database of an area's read model unless MONGO_DB names another (a rebuild, deploy/README.md). */
export function defaultDatabaseName(area: string): string {
  return `ledger_${area.replace(/-/g, '_')}`;
}

/**
 * The environment of every service process (docs/design.md "Operations").
 * `storeGiven`: the caller hands startService its store, so ROLE=api needs no MONGO_URL.
 */
export function serviceConfigSchema(defaults: { area: string; port: number; adminPort: number; storeGiven?: boolean }) {
  return z
    .object({
      // api: serves HTTP from the store (N replicas); projector: the single writer of the read model; all: both.
      ROLE: z.enum(ROLES).default('all'),
      // Where the service listens: the API on PORT, on HOST.
      HOST: z.string().default('0.0.0.0'),
      PORT: env.port(defaults.port),
      // /livez, /readyz and /metrics, on HOST: apart from the API so that only probes and monitoring reach them.
      ADMIN_PORT: env.port(defaults.adminPort),
      // The MongoDB of the area's read model; unset: the embedded store. Required with ROLE=api.
      // Not parsed as a URL: MongoDB's multi-host form (`mongodb://a:27017,b:27017/`) is not one.
      MONGO_URL: z
        .string()
        .regex(/^mongodb(\+srv)?:\/\/\S+$/, 'must be a mongodb:// or mongodb+srv:// connection string')
        .optional(),
      // The area's database; one per area.
      MONGO_DB: z
        .string()
        .regex(/^[\w-]{1,63}$/, 'must be a database name')
        .default(defaultDatabaseName(defaults.area)),
      // Redis for the page cache; unset: an in-process LRU.
      REDIS_URL: env.url(['redis', 'rediss']).optional(),
      // The NATS server whose JetStream the projector consumes.
      NATS_URL: z.string().optional(),
      // Its sign-in, and the ledger stream's copies and limits (see natsEnvironment).
      ...natsEnvironment,
      // The JetStream stream of ledger events.
      LEDGER_STREAM: z
        .string()
        .regex(/^[\w-]{1,64}$/, 'must be a stream name')
        .default('LEDGER'),
      // Events arrive on <prefix>.applied and <prefix>.reverted.
      LEDGER_SUBJECT_PREFIX: z
        .string()
        .regex(/^[\w-]+(\.[\w-]+)*$/, 'must be a NATS subject prefix')
        .default('ledger.block'),
      // A JSON Lines ledger replayed in-process instead of NATS.
      LEDGER_FILE: z.string().optional(),
      // Projectors over a shared store (MongoDB) take the area's lease in the NATS KV bucket
      // ledger-projector-leases; a lease whose holder stopped renewing expires after this long.
      PROJECTOR_LEASE_TTL_MS: env.int(15_000, 1_000),
      // A projector that once caught up stays ready until its consumer holds more ledger events than this
      // not yet handled (ledger_consumer_pending_events); 1 or more, since every new block is pending a moment.
      READY_MAX_LAG_EVENTS: env.int(100, 1),
      // The address version byte: 23 mainnet, 30 devnet.
      NETWORK_VERSION: env.int(23, 0, 255),
      // How long a cached page lives, and how many pages the in-process cache holds.
      CACHE_TTL_SECONDS: env.int(300, 1),
      CACHE_MAX_ENTRIES: env.int(5000, 1),
      // With REDIS_URL: megabytes of recently served pages kept in the process in front of Redis,
      // answered without a round trip (a page under a key never changes); 0 reads every page from Redis.
      CACHE_MEMORY_MB: env.int(64, 0, 65_536),
      // How many recent blocks stay revertible; reads at a past height use their undo records, so at least HISTORY_BLOCKS.
      UNDO_RETENTION: env.int(10_000, 1),
      // How far back point reads (by id, sub-resources, batches) answer at a past height: `height` >= newest - HISTORY_BLOCKS + 1.
      // 0 keeps no history: the projector indexes no ids of undo steps (a faster replay), and `height` (or a cursor walk's)
      // answers at the newest height alone; an older one is 410 Gone with `earliestHeight` the newest, as past any window.
      HISTORY_BLOCKS: env.int(10_000, 0),
      // How far back lists and searches answer at a past height; each such read takes back every change since, so kept short.
      // Not read with HISTORY_BLOCKS=0.
      LIST_HISTORY_BLOCKS: env.int(360, 1),
      // How deep a block must lie below the newest for answers read at it by `height` and `blockId` to be sent as
      // immutable; 0: UNDO_RETENTION, the deepest revert the area can take.
      FINALITY_DEPTH: env.int(0, 0),
      // How many recent commits the read model keeps for live streams to resume from (Last-Event-ID).
      EVENTS_HISTORY: env.int(10_000, 1),
      // How often a process that does not write the read model (an api replica) looks for new commits in the store.
      COMMIT_POLL_MS: env.int(100, 5),
      // An idle live stream carries a keep-alive comment at least this often.
      EVENTS_KEEP_ALIVE_MS: env.int(15_000, 100),
      // package.latestVersion in configuration responses; the package's own version when unset.
      LATEST_VERSION: z.string().optional(),
      // At SIGTERM: serve on this long first, while the load balancer stops sending here (Kubernetes preStop).
      SHUTDOWN_DELAY_MS: env.int(0, 0),
      // Then, for this long, requests on open connections are still answered, each with Connection: close.
      SHUTDOWN_DRAIN_MS: env.int(1_000, 0),
      // How long a graceful shutdown may take after the delay before the process exits anyway.
      SHUTDOWN_TIMEOUT_MS: env.int(10_000, 1_000),
      // A client slower than this to send its whole request (headers and body) gets 408.
      REQUEST_TIMEOUT_MS: env.int(DEFAULT_REQUEST_TIMEOUT_MS, 1),
      // Idle keep-alive connections outlive a load balancer's idle timeout (60 s for the common ones).
      KEEP_ALIVE_TIMEOUT_MS: env.int(DEFAULT_KEEP_ALIVE_TIMEOUT_MS, 1),
      // The pino log level.
      LOG_LEVEL: env.logLevel(),
      // production: the projector trusts projections, which the type system holds to it, never to change a document
      // they read or put, and skips freezing each one; anything else (a first run, tests) keeps that guard on.
      NODE_ENV: z.string().optional(),
    })
    .superRefine((config, ctx) => {
      if (config.ROLE === 'api' && !config.MONGO_URL && !defaults.storeGiven) {
        ctx.addIssue({ code: 'custom', path: ['MONGO_URL'], message: 'is required with ROLE=api: the embedded store lives inside one process' });
      }
      if (config.NATS_URL && config.LEDGER_FILE) {
        ctx.addIssue({ code: 'custom', path: ['LEDGER_FILE'], message: 'set either NATS_URL or LEDGER_FILE, not both' });
      }
      if (config.UNDO_RETENTION < config.HISTORY_BLOCKS) {
        ctx.addIssue({
          code: 'custom',
          path: ['UNDO_RETENTION'],
          message: 'must be at least HISTORY_BLOCKS: reads at a past height use the undo records',
        });
      }
      if (config.HISTORY_BLOCKS > 0 && config.LIST_HISTORY_BLOCKS > config.HISTORY_BLOCKS) {
        ctx.addIssue({ code: 'custom', path: ['LIST_HISTORY_BLOCKS'], message: 'must be at most HISTORY_BLOCKS' });
      }
      checkNatsEnvironment(config, ctx);
    });
}

export type ServiceConfig = z.output<ReturnType<typeof serviceConfigSchema>>;
