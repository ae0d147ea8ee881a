import { MemoryPageCache } from './memory-page-cache';
import { TieredPageCache } from './tiered-page-cache';
import type { CacheLogger, CacheMetrics, PageCache } from './types';

export interface CreatePageCacheOptions {
  /** Unset means an in-process LRU instead of Redis. */
  redisUrl?: string;
  prefix: string;
  ttlSeconds: number;
  /** Capacity of the in-process LRU; Redis evicts by its own policy. */
  maxEntries: number;
  /** Bytes of pages this process keeps in memory in front of Redis; 0 reads every page from Redis. */
  memoryBytes?: number;
  logger: CacheLogger;
  metrics?: CacheMetrics;
}

function sharedCache(redisUrl: string, { prefix, ttlSeconds, memoryBytes = 0, logger, metrics }: CreatePageCacheOptions): PageCache {
  // Loaded here, with its client: a process without Redis never loads either.
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a load on first use, which a static import cannot be
  const { RedisPageCache } = require('./redis-page-cache') as typeof import('./redis-page-cache');
  const redis = new RedisPageCache({ url: redisUrl, prefix, ttlSeconds, logger, metrics });
  return memoryBytes > 0 ? new TieredPageCache(redis, { maxBytes: memoryBytes, ttlSeconds }) : redis;
}

/** Redis when a URL is configured (with recent pages kept in memory in front of it), otherwise the in-process LRU. */
export function createPageCache(options: CreatePageCacheOptions): PageCache {
  const { redisUrl, ttlSeconds, maxEntries, logger } = options;
  const cache = redisUrl ? sharedCache(redisUrl, options) : new MemoryPageCache({ maxEntries, ttlSeconds });
  logger.info({ cache: cache.kind, ttlSeconds, memoryBytes: redisUrl ? (options.memoryBytes ?? 0) : undefined }, 'Page cache configured');
  return cache;
}
