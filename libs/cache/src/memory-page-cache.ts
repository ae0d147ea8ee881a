import { LRUCache } from 'lru-cache';
import { assertPositiveInteger, type CachedPage, type ContentCoding, type PageCache, type PageVariant } from './types';

export interface MemoryPageCacheOptions {
  maxEntries: number;
  ttlSeconds: number;
  /** Milliseconds on a monotonic clock; defaults to performance.now. */
  clock?: () => number;
}

/** The in-process page cache used when no Redis is configured: least recently used pages go first. */
export class MemoryPageCache implements PageCache {
  readonly kind = 'memory' as const;
  private readonly pages: LRUCache<string, CachedPage>;

  constructor({ maxEntries, ttlSeconds, clock }: MemoryPageCacheOptions) {
    assertPositiveInteger('maxEntries', maxEntries);
    assertPositiveInteger('ttlSeconds', ttlSeconds);
    this.pages = new LRUCache<string, CachedPage>({
      max: maxEntries,
      ttl: ttlSeconds * 1000,
      // Read the clock on every lookup so a page is never served past its TTL.
      ttlResolution: 0,
      ...(clock && { perf: { now: clock } }),
    });
  }

  async get(key: string, coding: ContentCoding): Promise<PageVariant | null> {
    return this.pages.get(key)?.[coding] ?? null;
  }

  async set(key: string, page: CachedPage): Promise<void> {
    this.pages.set(key, page);
  }

  async close(): Promise<void> {
    this.pages.clear();
  }
}
