import { TieredPageCache } from './tiered-page-cache';
import type { CachedPage, ContentCoding, PageCache, PageVariant } from './types';

const variant = (text: string, encoding: ContentCoding = 'identity'): PageVariant => ({ encoding, etag: `"${text}"`, body: Buffer.from(text) });
const page = (text: string): CachedPage => ({ br: variant(`${text}-br`, 'br'), gzip: variant(`${text}-gz`, 'gzip'), identity: variant(text) });

/** A shared cache in a Map that counts what is asked of it. */
function sharedCache(): PageCache & { gets: string[] } {
  const pages = new Map<string, CachedPage>();
  const gets: string[] = [];
  return {
    kind: 'redis',
    gets,
    get: async (key, coding) => {
      gets.push(`${coding} ${key}`);
      return pages.get(key)?.[coding] ?? null;
    },
    set: async (key, stored) => void pages.set(key, stored),
    close: async () => pages.clear(),
  };
}

describe('TieredPageCache', () => {
  it('answers from memory what it stored, asking the shared cache nothing', async () => {
    const shared = sharedCache();
    const cache = new TieredPageCache(shared, { maxBytes: 10_000, ttlSeconds: 60 });
    await cache.set('p', page('one'));
    expect(await cache.get('p', 'br')).toEqual(variant('one-br', 'br'));
    expect(await cache.get('p', 'identity')).toEqual(variant('one'));
    expect(shared.gets).toEqual([]);
    expect(await shared.get('p', 'gzip')).toEqual(variant('one-gz', 'gzip'));
    expect(cache.kind).toBe('redis');
  });

  it('keeps what another replica stored once it has read it from the shared cache', async () => {
    const shared = sharedCache();
    await shared.set('p', page('theirs'));
    const cache = new TieredPageCache(shared, { maxBytes: 10_000, ttlSeconds: 60 });
    expect(await cache.get('p', 'gzip')).toEqual(variant('theirs-gz', 'gzip'));
    expect(await cache.get('p', 'gzip')).toEqual(variant('theirs-gz', 'gzip'));
    expect(await cache.get('missing', 'gzip')).toBeNull();
    expect(shared.gets).toEqual(['gzip p', 'gzip missing']);
  });

  it('keeps no more bytes than it may, the least recently used going first', async () => {
    const shared = sharedCache();
    const cache = new TieredPageCache(shared, { maxBytes: 700, ttlSeconds: 60 });
    await cache.set('a', page('a'));
    await cache.set('b', page('b'));
    expect(await cache.get('b', 'br')).not.toBeNull();
    expect(await cache.get('a', 'br')).not.toBeNull();
    expect(shared.gets).toEqual(['br a']);
  });

  it('forgets a copy once its TTL has passed and reads the shared cache again', async () => {
    let now = 1_000;
    const shared = sharedCache();
    const cache = new TieredPageCache(shared, { maxBytes: 10_000, ttlSeconds: 30, clock: () => now });
    await cache.set('p', page('one'));
    now += 29_000;
    await cache.get('p', 'identity');
    now += 2_000;
    await cache.get('p', 'identity');
    expect(shared.gets).toEqual(['identity p']);
  });

  it('empties both tiers on close', async () => {
    const shared = sharedCache();
    const cache = new TieredPageCache(shared, { maxBytes: 10_000, ttlSeconds: 60 });
    await cache.set('p', page('one'));
    await cache.close();
    expect(await cache.get('p', 'br')).toBeNull();
  });
});
