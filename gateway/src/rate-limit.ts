import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { Request, RequestHandler } from 'express';
import { ipKeyGenerator } from 'express-rate-limit';
import { Redis } from 'ioredis';
import type { Logger, Metrics } from '@ledger-api/observability';
import { sendError } from './errors';

export const RATE_LIMIT_WINDOW_MS = 60_000;

/** Counts added up over every gateway replica, e.g. in Redis. */
export interface SharedCounts {
  /** Adds this replica's new hits per client to the window's shared counts; answers each client's shared total. */
  add(windowStart: number, hits: ReadonlyMap<string, number>): Promise<Map<string, number>>;
}

export interface RateLimiterOptions {
  limitPerMinute: number;
  /** Where replicas add up their counts; without it each replica limits on its own counts. */
  shared?: SharedCounts;
  /** How often this replica's new hits go to the shared counts. */
  syncIntervalMs: number;
  logger: Logger;
  metrics: Metrics;
  /** The client's address as the gateway trusts it (Express's req.ip under its `trust proxy`). */
  clientAddress: (req: Request) => string | undefined;
  /** Milliseconds since the epoch; windows start on whole minutes of it, alike on every replica. */
  clock?: () => number;
}

interface ClientCount {
  /** Requests this replica counted in the window. */
  local: number;
  /** The part of `local` already added to the shared count. */
  synced: number;
  /** The shared total when this replica last synced, its own synced hits included. */
  shared: number;
  /** The client's RateLimit-Policy header: its `pk` names the client by a hash, never by its address. */
  policy: string;
}

/** express-rate-limit's partition key, so headers read as they always have. */
const partitionKeyOf = (key: string) => Buffer.from(createHash('sha256').update(key).digest('hex').slice(0, 12)).toString('base64');

/** The RateLimit name and policy of a limit per window (draft-8 of the IETF RateLimit header fields). */
function rateLimitPolicy(limit: number, windowMs: number) {
  const name = `"${limit}-in-${windowMs / 60_000}min"`;
  return { name, policyOf: (key: string) => `${name}; q=${limit}; w=${windowMs / 1000}; pk=:${partitionKeyOf(key)}:` };
}

/**
 * Per-client counts of one fixed window, kept in memory so a request never waits
 * on Redis. A replica adds its new hits to the shared counts every sync interval
 * and reads back the totals, so a client's count here is the shared total as of
 * the last sync plus what this replica saw since: the limit holds across replicas
 * to within the hits other replicas took in one interval.
 */
class WindowCounts {
  windowStart = -Infinity;
  private counts = new Map<string, ClientCount>();
  /** Client keys by address: an IPv6 address takes parsing to find its subnet. */
  private keys = new Map<string, string>();

  constructor(
    private readonly windowMs: number,
    private readonly policyOf: (key: string) => string,
  ) {}

  /** Counts a request from `address` at `now`, starting a new window when the last one is over. */
  hit(address: string, now: number): ClientCount {
    if (now >= this.windowStart + this.windowMs) {
      this.windowStart = now - (now % this.windowMs);
      this.counts = new Map();
      this.keys = new Map();
    }
    const key = this.keyOf(address);
    let count = this.counts.get(key);
    if (!count) {
      count = { local: 0, synced: 0, shared: 0, policy: this.policyOf(key) };
      this.counts.set(key, count);
    }
    count.local += 1;
    return count;
  }

  /** An IPv6 client counts by its /56, as in express-rate-limit, so it cannot dodge the limit by changing addresses within it. */
  private keyOf(address: string): string {
    if (!address.includes(':')) return address;
    let key = this.keys.get(address);
    if (key === undefined) {
      key = ipKeyGenerator(address);
      this.keys.set(address, key);
    }
    return key;
  }

  /** The hits not yet shared, by client. */
  unshared(): Map<string, number> {
    const hits = new Map<string, number>();
    for (const [key, count] of this.counts) if (count.local > count.synced) hits.set(key, count.local - count.synced);
    return hits;
  }

  /** Records that `hits` reached the shared counts of `windowStart`, which now stand at `totals`. */
  shared(windowStart: number, hits: ReadonlyMap<string, number>, totals: ReadonlyMap<string, number>): void {
    // The window ended meanwhile: no replica reads its counts any more.
    if (windowStart !== this.windowStart) return;
    for (const [key, added] of hits) {
      const count = this.counts.get(key);
      if (!count) continue;
      count.synced += added;
      count.shared = totals.get(key) ?? count.shared;
    }
  }
}

const total = (count: ClientCount) => count.shared + count.local - count.synced;

const SYNC_ERROR_LOG_INTERVAL_MS = 10_000;

/** During an outage every sync fails the same way; one line per interval says it all. */
function throttledWarning(logger: Logger, intervalMs: number) {
  let lastLoggedAt = -Infinity;
  let suppressed = 0;
  return (error: unknown) => {
    if (Date.now() - lastLoggedAt < intervalMs) {
      suppressed += 1;
      return;
    }
    logger.warn({ err: error, suppressedSinceLastLine: suppressed }, 'rate-limit counts could not be shared; limiting on this replica alone');
    lastLoggedAt = Date.now();
    suppressed = 0;
  };
}

/** Whether the limit holds across replicas: an alert's view of what the throttled warning says. */
function sharingMetrics(metrics: Metrics) {
  const sharedNow = metrics.gauge(
    'gateway_rate_limit_shared',
    "1 while this replica's last sync reached the shared counts, 0 while it limits on its own counts (the limit is per replica)",
  );
  sharedNow.set(1);
  const failures = metrics.counter('gateway_rate_limit_sync_failures_total', 'Syncs of the rate-limit counts that failed or timed out');
  return {
    succeeded: () => sharedNow.set(1),
    failed: () => {
      sharedNow.set(0);
      failures.inc();
    },
  };
}

/** Sends the window's new hits to the shared counts, one sync at a time, while there are any. */
function sharing(counts: WindowCounts, shared: SharedCounts, intervalMs: number, logger: Logger, metrics: Metrics): () => void {
  let scheduled = false;
  const warn = throttledWarning(logger, SYNC_ERROR_LOG_INTERVAL_MS);
  const outcome = sharingMetrics(metrics);
  const sync = async () => {
    const { windowStart } = counts;
    const hits = counts.unshared();
    try {
      if (hits.size > 0) counts.shared(windowStart, hits, await shared.add(windowStart, hits));
      outcome.succeeded();
    } catch (error) {
      // The hits stay unshared and go with the next sync; meanwhile this replica limits on its own counts.
      outcome.failed();
      warn(error);
    }
    scheduled = false;
    if (counts.unshared().size > 0) schedule();
  };
  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    // Only while hits wait to be shared: an idle gateway, or one under test, keeps no timer.
    setTimeout(() => void sync(), intervalMs).unref();
  };
  return schedule;
}

/** A request counted against its client's limit: the headers its answer carries, and whether it is refused. */
export interface Admission {
  headers: Array<[string, string]>;
  /** Seconds until the window ends, set when the client is over the limit. */
  retryAfter?: string;
}

export interface RateLimiter {
  /** Counts a request; the caller sends the headers with its answer, or refuses it. */
  admit(req: Request): Admission;
  /** Answers a refused request 429 with the given headers (its admission's among them) and Retry-After. */
  refuse(res: ServerResponse, headers: ReadonlyArray<readonly [string, string]>, retryAfter: string): void;
  /** For requests Express routes: the headers set on the answer, and 429 past the limit. */
  middleware: RequestHandler;
}

/**
 * Per client IP and minute; undefined when the limit is 0 (disabled). Answers carry
 * the draft-8 RateLimit headers and the X-RateLimit-* ones (docs/behaviour.md section 8);
 * a client over the limit gets 429 with Retry-After.
 */
export function createRateLimiter(options: RateLimiterOptions): RateLimiter | undefined {
  const { limitPerMinute: limit, shared, syncIntervalMs, logger, metrics, clientAddress, clock = Date.now } = options;
  if (limit === 0) return undefined;
  const { name, policyOf } = rateLimitPolicy(limit, RATE_LIMIT_WINDOW_MS);
  const counts = new WindowCounts(RATE_LIMIT_WINDOW_MS, policyOf);
  const share = shared && sharing(counts, shared, syncIntervalMs, logger, metrics);
  const limited = metrics.counter('http_rate_limited_total', 'Requests answered 429 because their client was over the rate limit');
  const limitText = String(limit);
  const admit = (req: Request): Admission => {
    const now = clock();
    const count = counts.hit(clientAddress(req) ?? 'unknown', now);
    share?.();
    const remaining = Math.max(0, limit - total(count));
    const resetAt = counts.windowStart + RATE_LIMIT_WINDOW_MS;
    const secondsLeft = String(Math.ceil((resetAt - now) / 1000));
    const headers: Array<[string, string]> = [
      ['RateLimit-Policy', count.policy],
      ['RateLimit', `${name}; r=${remaining}; t=${secondsLeft}`],
      ['X-RateLimit-Limit', limitText],
      ['X-RateLimit-Remaining', String(remaining)],
      ['X-RateLimit-Reset', String(Math.ceil(resetAt / 1000))],
    ];
    return total(count) <= limit ? { headers } : { headers, retryAfter: secondsLeft };
  };
  const refuse = (res: ServerResponse, headers: ReadonlyArray<readonly [string, string]>, retryAfter: string) => {
    limited.inc();
    for (const [header, value] of headers) res.setHeader(header, value);
    res.setHeader('Retry-After', retryAfter);
    sendError(res, 429, `Rate limit of ${limit} requests per minute exceeded`);
  };
  const middleware: RequestHandler = (req, res, next) => {
    const { headers, retryAfter } = admit(req);
    if (retryAfter !== undefined) return refuse(res, headers, retryAfter);
    // Sent with the gateway's own headers: by the proxy with the service's, or as the head goes out.
    req.context.rateLimitHeaders = headers;
    next();
  };
  return { admit, refuse, middleware };
}

/**
 * A Redis client for the limiter's counts that fails fast: commands while disconnected
 * or stuck are rejected, so a sync fails and is retried later instead of piling up.
 * Counters are all it holds, so closing it need not wait long either.
 */
export function connectRateLimitRedis(url: string, logger: Logger): Redis {
  const redis = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, commandTimeout: 500, disconnectTimeout: 500 });
  let reachable = true;
  redis.on('error', (error) => {
    // ioredis reports every failed reconnect; one line per outage is enough.
    if (reachable) logger.warn({ err: error }, 'rate-limit Redis unreachable; each replica limits on its own counts until it is back');
    reachable = false;
  });
  redis.on('ready', () => {
    if (!reachable) logger.info('rate-limit Redis reachable again');
    reachable = true;
  });
  return redis;
}

/** Shared counts in Redis: a key per window and client that expires after its window. */
export function redisSharedCounts(redis: Redis, prefix: string): SharedCounts {
  return {
    async add(windowStart, hits) {
      const pipeline = redis.pipeline();
      const keys = [...hits.keys()];
      for (const key of keys) {
        const name = `${prefix}${windowStart}:${key}`;
        pipeline.incrby(name, hits.get(key)!).pexpireat(name, windowStart + 2 * RATE_LIMIT_WINDOW_MS);
      }
      const replies = (await pipeline.exec()) ?? [];
      const failed = replies.find(([error]) => error)?.[0];
      if (failed) throw failed;
      // Each key's INCRBY answer comes before its PEXPIREAT answer.
      return new Map(keys.map((key, index) => [key, Number(replies[2 * index][1])]));
    },
  };
}
