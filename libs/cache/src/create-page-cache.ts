import { MemoryPageCache } from './memory-page-cache';
import { RedisPageCache } from './redis-page-cache';
import type { CacheLogger, CacheMetrics, PageCache } from './types';

export interface CreatePageCacheOptions {
  /** Unset means an in-process LRU instead of Redis. */
  redisUrl?: string;
  prefix: string;
  ttlSeconds: number;
  /** Capacity of the in-process LRU; Redis evicts by its own policy. */
  maxEntries: number;
  logger: CacheLogger;
  metrics?: CacheMetrics;
}

/** Redis when a URL is configured, otherwise the in-process LRU. */
export function createPageCache({ redisUrl, prefix, ttlSeconds, maxEntries, logger, metrics }: CreatePageCacheOptions): PageCache {
  const cache = redisUrl
    ? new RedisPageCache({ url: redisUrl, prefix, ttlSeconds, logger, metrics })
    : new MemoryPageCache({ maxEntries, ttlSeconds });
  logger.info({ cache: cache.kind, ttlSeconds }, 'Page cache configured');
  return cache;
}
