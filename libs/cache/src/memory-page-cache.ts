import { LRUCache } from 'lru-cache';
import { assertPositiveInteger, type PageCache } from './types';

export interface MemoryPageCacheOptions {
  maxEntries: number;
  ttlSeconds: number;
  /** Milliseconds on a monotonic clock; defaults to performance.now. */
  clock?: () => number;
}

/** The in-process page cache used when no Redis is configured: least recently used pages go first. */
export class MemoryPageCache implements PageCache {
  readonly kind = 'memory' as const;
  private readonly pages: LRUCache<string, string>;

  constructor({ maxEntries, ttlSeconds, clock }: MemoryPageCacheOptions) {
    assertPositiveInteger('maxEntries', maxEntries);
    assertPositiveInteger('ttlSeconds', ttlSeconds);
    this.pages = new LRUCache<string, string>({
      max: maxEntries,
      ttl: ttlSeconds * 1000,
      // Read the clock on every lookup so a page is never served past its TTL.
      ttlResolution: 0,
      ...(clock && { perf: { now: clock } }),
    });
  }

  async get(key: string): Promise<string | null> {
    return this.pages.get(key) ?? null;
  }

  async set(key: string, value: string): Promise<void> {
    this.pages.set(key, value);
  }

  async close(): Promise<void> {
    this.pages.clear();
  }
}
