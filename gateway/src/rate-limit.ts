import type { RequestHandler } from 'express';
import { rateLimit, type Store } from 'express-rate-limit';
import { Redis } from 'ioredis';
import { RedisStore, type RedisReply } from 'rate-limit-redis';
import type { Logger } from '@ledger-api/observability';
import { sendError } from './errors';

const RATE_LIMIT_WINDOW_MS = 60_000;

export interface RateLimiterOptions {
  limitPerMinute: number;
  /** Shared counters across gateway replicas; the in-process memory store when absent. */
  store?: Store;
  logger: Logger;
}

const STORE_ERROR_LOG_INTERVAL_MS = 10_000;

/** During a store outage every request fails the same way; one line per interval says it all. */
function throttledWarning(logger: Logger, intervalMs: number) {
  let lastLoggedAt = -Infinity;
  let suppressed = 0;
  return (error: unknown, message = 'rate limiter error') => {
    if (Date.now() - lastLoggedAt < intervalMs) {
      suppressed += 1;
      return;
    }
    logger.warn({ err: error, suppressedSinceLastLine: suppressed }, message);
    lastLoggedAt = Date.now();
    suppressed = 0;
  };
}

/** Per client IP and minute; undefined when the limit is 0 (disabled). */
export function createRateLimiter({ limitPerMinute, store, logger }: RateLimiterOptions): RequestHandler | undefined {
  if (limitPerMinute === 0) return undefined;
  return rateLimit({
    windowMs: RATE_LIMIT_WINDOW_MS,
    limit: limitPerMinute,
    standardHeaders: 'draft-8',
    legacyHeaders: true,
    store,
    // A rate-limit store outage must not become an API outage.
    passOnStoreError: true,
    logger: {
      error: throttledWarning(logger, STORE_ERROR_LOG_INTERVAL_MS),
      warn: (error, message) => logger.warn({ err: error }, message ?? 'rate limiter warning'),
    },
    handler: (_req, res) => sendError(res, 429, `Rate limit of ${limitPerMinute} requests per minute exceeded`),
  });
}

/**
 * A Redis client for the limiter that fails fast: commands while disconnected or
 * stuck are rejected, so the limiter lets requests through instead of holding them.
 * Counters are all it holds, so closing it need not wait long either.
 */
export function connectRateLimitRedis(url: string, logger: Logger): Redis {
  const redis = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, commandTimeout: 500, disconnectTimeout: 500 });
  let reachable = true;
  redis.on('error', (error) => {
    // ioredis reports every failed reconnect; one line per outage is enough.
    if (reachable) logger.warn({ err: error }, 'rate-limit Redis unreachable; requests pass unlimited until it is back');
    reachable = false;
  });
  redis.on('ready', () => {
    if (!reachable) logger.info('rate-limit Redis reachable again');
    reachable = true;
  });
  return redis;
}

export function createRedisRateLimitStore(redis: Redis, prefix: string): Store {
  const store = new RedisStore({
    prefix,
    sendCommand: (command: string, ...args: string[]) => redis.call(command, ...args) as Promise<RedisReply>,
  });
  // The store loads its scripts from the constructor and leaves a failure unhandled,
  // which would end the process when Redis is down at start. Requests reload the
  // scripts when they are missing, so the early failure is safe to drop.
  store.incrementScriptSha.catch(() => undefined);
  store.getScriptSha.catch(() => undefined);
  return store;
}
