import { MemoryPageCache } from './memory-page-cache';

describe('MemoryPageCache', () => {
  it('returns what was stored and null for unknown keys', async () => {
    const cache = new MemoryPageCache({ maxEntries: 10, ttlSeconds: 60 });
    await cache.set('page', '{"data":[]}');
    expect(await cache.get('page')).toBe('{"data":[]}');
    expect(await cache.get('other')).toBeNull();
    expect(cache.kind).toBe('memory');
  });

  it('expires entries once their TTL has passed', async () => {
    let now = 1_000;
    const cache = new MemoryPageCache({ maxEntries: 10, ttlSeconds: 30, clock: () => now });
    await cache.set('page', 'v1');
    now += 29_999;
    expect(await cache.get('page')).toBe('v1');
    now += 2;
    expect(await cache.get('page')).toBeNull();
  });

  it('evicts the least recently used entry when full', async () => {
    const cache = new MemoryPageCache({ maxEntries: 2, ttlSeconds: 60 });
    await cache.set('a', '1');
    await cache.set('b', '2');
    expect(await cache.get('a')).toBe('1');
    await cache.set('c', '3');
    expect(await cache.get('b')).toBeNull();
    expect(await cache.get('a')).toBe('1');
    expect(await cache.get('c')).toBe('3');
  });

  it('empties on close', async () => {
    const cache = new MemoryPageCache({ maxEntries: 2, ttlSeconds: 60 });
    await cache.set('a', '1');
    await cache.close();
    expect(await cache.get('a')).toBeNull();
  });

  it('rejects a capacity or TTL that is not a positive integer', () => {
    expect(() => new MemoryPageCache({ maxEntries: 0, ttlSeconds: 60 })).toThrow(RangeError);
    expect(() => new MemoryPageCache({ maxEntries: 10, ttlSeconds: 1.5 })).toThrow(RangeError);
  });
});
