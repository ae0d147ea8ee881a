import { createPageCache } from './create-page-cache';
import { MemoryPageCache } from './memory-page-cache';
import { RedisPageCache } from './redis-page-cache';
import { TieredPageCache } from './tiered-page-cache';

const logger = { info: jest.fn(), warn: jest.fn() };

describe('createPageCache', () => {
  it('never loads the Redis client without a Redis URL', async () => {
    let isolated: typeof createPageCache | undefined;
    jest.isolateModules(() => {
      jest.doMock('ioredis', () => {
        throw new Error('the Redis client was loaded');
      });
      isolated = jest.requireActual<typeof import('./index')>('./index').createPageCache;
    });
    const cache = isolated!({ prefix: 'p:', ttlSeconds: 60, maxEntries: 10, logger });
    expect(cache.kind).toBe('memory');
    await cache.close();
  });

  it('uses the in-process LRU without a Redis URL', async () => {
    const cache = createPageCache({ prefix: 'p:', ttlSeconds: 60, maxEntries: 10, logger });
    expect(cache).toBeInstanceOf(MemoryPageCache);
    await cache.close();
  });

  it('uses Redis when a URL is configured', async () => {
    const cache = createPageCache({ redisUrl: 'redis://127.0.0.1:6379', prefix: 'p:', ttlSeconds: 60, maxEntries: 10, logger });
    expect(cache).toBeInstanceOf(RedisPageCache);
    expect(cache.kind).toBe('redis');
    await cache.close();
  });

  it('keeps recent pages in memory in front of Redis when given the bytes for it', async () => {
    const cache = createPageCache({ redisUrl: 'redis://127.0.0.1:6379', prefix: 'p:', ttlSeconds: 60, maxEntries: 10, memoryBytes: 1 << 20, logger });
    expect(cache).toBeInstanceOf(TieredPageCache);
    expect(cache.kind).toBe('redis');
    await cache.close();
  });
});
