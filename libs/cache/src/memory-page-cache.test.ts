import { MemoryPageCache } from './memory-page-cache';
import type { CachedPage, PageVariant } from './types';

const variant = (text: string, encoding: PageVariant['encoding'] = 'identity'): PageVariant => ({
  encoding,
  etag: `"${text}"`,
  body: Buffer.from(text),
});
const plainPage = (text: string): CachedPage => ({ br: variant(text), gzip: variant(text), identity: variant(text) });

describe('MemoryPageCache', () => {
  it('returns the representation asked for, and null for unknown keys', async () => {
    const cache = new MemoryPageCache({ maxEntries: 10, ttlSeconds: 60 });
    const page = { br: variant('b', 'br'), gzip: variant('g', 'gzip'), identity: variant('{"data":[]}') };
    await cache.set('page', page);
    expect(await cache.get('page', 'identity')).toEqual(page.identity);
    expect(await cache.get('page', 'br')).toEqual(page.br);
    expect(await cache.get('page', 'gzip')).toEqual(page.gzip);
    expect(await cache.get('other', 'identity')).toBeNull();
    expect(cache.kind).toBe('memory');
  });

  it('expires entries once their TTL has passed', async () => {
    let now = 1_000;
    const cache = new MemoryPageCache({ maxEntries: 10, ttlSeconds: 30, clock: () => now });
    await cache.set('page', plainPage('v1'));
    now += 29_999;
    expect((await cache.get('page', 'br'))?.body.toString()).toBe('v1');
    now += 2;
    expect(await cache.get('page', 'br')).toBeNull();
  });

  it('evicts the least recently used entry when full', async () => {
    const cache = new MemoryPageCache({ maxEntries: 2, ttlSeconds: 60 });
    await cache.set('a', plainPage('1'));
    await cache.set('b', plainPage('2'));
    expect(await cache.get('a', 'identity')).not.toBeNull();
    await cache.set('c', plainPage('3'));
    expect(await cache.get('b', 'identity')).toBeNull();
    expect(await cache.get('a', 'identity')).not.toBeNull();
    expect(await cache.get('c', 'identity')).not.toBeNull();
  });

  it('empties on close', async () => {
    const cache = new MemoryPageCache({ maxEntries: 2, ttlSeconds: 60 });
    await cache.set('a', plainPage('1'));
    await cache.close();
    expect(await cache.get('a', 'identity')).toBeNull();
  });

  it('rejects a capacity or TTL that is not a positive integer', () => {
    expect(() => new MemoryPageCache({ maxEntries: 0, ttlSeconds: 60 })).toThrow(RangeError);
    expect(() => new MemoryPageCache({ maxEntries: 10, ttlSeconds: 1.5 })).toThrow(RangeError);
  });
});
