import { LRUCache } from 'lru-cache';
import { assertPositiveInteger, type CachedPage, type ContentCoding, type PageCache, type PageVariant } from './types';

export interface TieredPageCacheOptions {
  /** Bytes of representations kept in this process. */
  maxBytes: number;
  ttlSeconds: number;
  /** Milliseconds on a monotonic clock; defaults to performance.now. */
  clock?: () => number;
}

const CODINGS: readonly ContentCoding[] = ['br', 'gzip', 'identity'];

// What a kept representation costs besides its body: the key, the ETag, the entry itself.
const ENTRY_OVERHEAD_BYTES = 200;

/**
 * A shared cache (Redis) with the representations this process served lately kept
 * in memory in front of it. A key names the ledger generation its page was read
 * from, so what is stored under it never changes: the copy here is as good as the
 * shared one and answers without a round trip. The shared cache still lets every
 * replica reuse a page any of them rendered.
 */
export class TieredPageCache implements PageCache {
  private readonly near: LRUCache<string, PageVariant>;

  constructor(
    private readonly shared: PageCache,
    { maxBytes, ttlSeconds, clock }: TieredPageCacheOptions,
  ) {
    assertPositiveInteger('maxBytes', maxBytes);
    assertPositiveInteger('ttlSeconds', ttlSeconds);
    this.near = new LRUCache<string, PageVariant>({
      maxSize: maxBytes,
      sizeCalculation: (variant) => variant.body.length + ENTRY_OVERHEAD_BYTES,
      ttl: ttlSeconds * 1000,
      // Read the clock on every lookup, as the shared cache's TTL does.
      ttlResolution: 0,
      ...(clock && { perf: { now: clock } }),
    });
  }

  get kind(): PageCache['kind'] {
    return this.shared.kind;
  }

  async get(key: string, coding: ContentCoding): Promise<PageVariant | null> {
    const nearKey = `${coding} ${key}`;
    const near = this.near.get(nearKey);
    if (near) return near;
    const variant = await this.shared.get(key, coding);
    if (variant) this.near.set(nearKey, variant);
    return variant;
  }

  async set(key: string, page: CachedPage): Promise<void> {
    for (const coding of CODINGS) this.near.set(`${coding} ${key}`, page[coding]);
    await this.shared.set(key, page);
  }

  async close(): Promise<void> {
    this.near.clear();
    await this.shared.close();
  }
}
