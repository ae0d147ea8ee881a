import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer, connect, type AddressInfo, type Server, type Socket } from 'node:net';
import { Redis } from 'ioredis';
import { waitFor as waitUntil } from '@ledger-api/test-kit';
import { RedisPageCache } from './redis-page-cache';
import type { CachedPage, CacheLogger, PageVariant } from './types';

const REDIS_HOST = '127.0.0.1';
const REDIS_PORT = 6379;

const variant = (text: string, encoding: PageVariant['encoding'] = 'identity'): PageVariant => ({
  encoding,
  etag: `"${text}-etag"`,
  body: Buffer.from(text),
});
const plainPage = (text: string): CachedPage => ({ br: variant(text), gzip: variant(text), identity: variant(text) });

/** Rejects if the promise has not settled by the deadline: the "bounded time" the cache promises. */
async function settlesWithin<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`did not settle within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

function recordingLogger(): { logger: CacheLogger; messages: (level: 'info' | 'warn') => string[] } {
  const lines: { level: 'info' | 'warn'; message: string }[] = [];
  return {
    logger: {
      info: (_details, message) => lines.push({ level: 'info', message }),
      warn: (_details, message) => lines.push({ level: 'warn', message }),
    },
    messages: (level) => lines.filter((line) => line.level === level).map((line) => line.message),
  };
}

/** A TCP relay to the real Redis that can be cut and restored on the same port, to stage an outage. */
class RedisRelay {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  port = 0;

  async start(): Promise<void> {
    const server = createServer((client) => {
      const upstream = connect(REDIS_PORT, REDIS_HOST);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => [client, upstream].forEach((end) => end.destroy()));
      }
      client.pipe(upstream).pipe(client);
    });
    server.listen(this.port, REDIS_HOST);
    await once(server, 'listening');
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = null;
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  }
}

describe('RedisPageCache against Redis at 127.0.0.1:6379', () => {
  const prefix = `test:page-cache:${process.pid}:${randomUUID()}:`;
  let redis: Redis;
  const caches: RedisPageCache[] = [];
  const newCache = (url: string, logger: CacheLogger, ttlSeconds = 120) => {
    const cache = new RedisPageCache({ url, prefix, ttlSeconds, logger });
    caches.push(cache);
    return cache;
  };
  const roundTrips = async (cache: RedisPageCache, key: string) => {
    const value = randomUUID();
    await cache.set(key, plainPage(value));
    return (await cache.get(key, 'identity'))?.body.toString() === value;
  };

  beforeAll(async () => {
    // No reconnects and no retries: an unreachable Redis fails this suite at once.
    redis = new Redis({ host: REDIS_HOST, port: REDIS_PORT, connectTimeout: 2000, maxRetriesPerRequest: 0, retryStrategy: () => null });
    await expect(redis.ping()).resolves.toBe('PONG');
  });

  afterAll(async () => {
    await Promise.all(caches.map((cache) => cache.close()));
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });

  it('stores pages under the prefix with the configured TTL', async () => {
    const cache = newCache(`redis://${REDIS_HOST}:${REDIS_PORT}`, recordingLogger().logger, 90);
    expect(cache.kind).toBe('redis');
    await waitUntil(() => roundTrips(cache, 'probe'), 'the cache reaches Redis');
    // Bytes that are not valid UTF-8 come back as they went in.
    const br = { encoding: 'br' as const, etag: '"abc-br"', body: Buffer.from([0xff, 0x0a, 0x20, 0x00, 0x8b]) };
    await cache.set('groups?page=1', { br, gzip: variant('g', 'gzip'), identity: variant('{"data":[1]}') });
    expect(await cache.get('groups?page=1', 'br')).toEqual(br);
    expect(await cache.get('groups?page=1', 'identity')).toEqual(variant('{"data":[1]}'));
    expect(await cache.get('never-set', 'br')).toBeNull();
    expect(await redis.hkeys(`${prefix}groups?page=1`)).toEqual(['br', 'gzip', 'identity']);
    const ttl = await redis.ttl(`${prefix}groups?page=1`);
    expect(ttl).toBeGreaterThan(80);
    expect(ttl).toBeLessThanOrEqual(90);
  });

  it('warns once per outage, answers misses meanwhile, and recovers when Redis is back', async () => {
    const relay = new RedisRelay();
    await relay.start();
    const { logger, messages } = recordingLogger();
    const cache = newCache(`redis://${REDIS_HOST}:${relay.port}`, logger);
    try {
      await waitUntil(() => roundTrips(cache, 'relay-probe'), 'the cache reaches Redis through the relay');

      await relay.stop();
      await waitUntil(() => messages('warn').length > 0, 'the outage is logged');
      for (let i = 0; i < 10; i++) {
        expect(await settlesWithin(cache.get('relay-probe', 'identity'), 2000)).toBeNull();
        await settlesWithin(cache.set('relay-probe', plainPage('during outage')), 2000);
      }
      expect(messages('warn')).toHaveLength(1);

      await relay.start();
      await waitUntil(() => roundTrips(cache, 'relay-probe'), 'the cache reconnects after the outage');
      expect(messages('info')).toEqual(['Redis page cache available again']);

      await relay.stop();
      await waitUntil(() => messages('warn').length === 2, 'the second outage is logged');
    } finally {
      await relay.stop();
    }
  });
});

describe('RedisPageCache with nothing listening', () => {
  it('misses and drops writes within a bounded time, warning once', async () => {
    const { logger, messages } = recordingLogger();
    const cache = new RedisPageCache({ url: 'redis://127.0.0.1:1', prefix: 'unreachable:', ttlSeconds: 60, logger });
    try {
      for (let i = 0; i < 5; i++) {
        expect(await settlesWithin(cache.get('page', 'br'), 2000)).toBeNull();
        await expect(settlesWithin(cache.set('page', plainPage('value')), 2000)).resolves.toBeUndefined();
      }
      await waitUntil(() => messages('warn').length > 0, 'the outage is logged');
      await settlesWithin(cache.get('page', 'br'), 2000);
      expect(messages('warn')).toHaveLength(1);
    } finally {
      await settlesWithin(cache.close(), 2000);
    }
  });

  it('counts each operation that fell back', async () => {
    const increments: Record<string, string>[] = [];
    const metrics = { counter: () => ({ inc: (labels: Record<string, string>) => increments.push(labels) }) };
    const cache = new RedisPageCache({
      url: 'redis://127.0.0.1:1',
      prefix: 'unreachable:',
      ttlSeconds: 60,
      logger: recordingLogger().logger,
      metrics,
    });
    try {
      await cache.get('page', 'gzip');
      await cache.set('page', plainPage('value'));
      expect(increments).toEqual([{ operation: 'get' }, { operation: 'set' }]);
    } finally {
      await cache.close();
    }
  });
});
