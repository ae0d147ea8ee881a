import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import type { Redis } from 'ioredis';
import { silentLogger } from '@ledger-api/observability';
import { connectRateLimitRedis, createRedisRateLimitStore } from './rate-limit';
import { refusingUrl, startFakeService, startGateway, timed, type FakeService, type RunningServer } from './testing/gateway-harness';

let service: FakeService;
const gateways: RunningServer[] = [];

beforeAll(async () => {
  service = await startFakeService('guardian');
});

afterEach(async () => {
  await Promise.all(gateways.splice(0).map((gateway) => gateway.close()));
});

afterAll(async () => {
  await service.close();
});

async function gateway(limit: number, options: Parameters<typeof startGateway>[1] = {}): Promise<string> {
  const started = await startGateway({ GUARDIAN_URL: service.url, RATE_LIMIT_PER_MINUTE: String(limit) }, options);
  gateways.push(started);
  return started.url;
}

async function statusesOf(url: string, count: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < count; i += 1) statuses.push((await fetch(url)).status);
  return statuses;
}

describe('rate limiting with the memory store', () => {
  it('answers 429 in the error format with the standard and legacy headers', async () => {
    const url = await gateway(2);
    const allowed = await fetch(`${url}/api/guardian/groups`);
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('x-ratelimit-limit')).toBe('2');
    expect(allowed.headers.get('x-ratelimit-remaining')).toBe('1');
    await fetch(`${url}/api/guardian/groups`);

    const limited = await fetch(`${url}/api/guardian/groups`);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await limited.json()).toEqual({ statusCode: 429, error: 'Too Many Requests', message: expect.stringContaining('2 requests per minute') });
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(limited.headers.get('ratelimit')).toMatch(/; r=0; t=\d+$/);
    expect(limited.headers.get('ratelimit-policy')).toMatch(/; q=2; w=60;/);
    expect(limited.headers.get('x-ratelimit-limit')).toBe('2');
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(Number(limited.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000);
    expect(limited.headers.get('x-request-id')).toBeTruthy();
    expect(service.received.filter(({ url: path }) => path === '/guardian/groups')).toHaveLength(2);
  });

  it('limits unknown paths too but never the health and metrics endpoints', async () => {
    const url = await gateway(1);
    expect(await statusesOf(`${url}/nowhere`, 2)).toEqual([404, 429]);
    for (const path of ['/livez', '/readyz', '/metrics']) {
      const response = await fetch(`${url}${path}`);
      expect(response.status).not.toBe(429);
      expect(response.headers.get('ratelimit')).toBeNull();
    }
  });

  it('counts behind one appending proxy by the address it appended, whatever the client wrote before it', async () => {
    const started = await startGateway({ GUARDIAN_URL: service.url, RATE_LIMIT_PER_MINUTE: '2', TRUST_PROXY: '1' });
    gateways.push(started);
    const viaProxy = (clientWrote: string, proxyAppended: string) =>
      fetch(`${started.url}/api/guardian/groups`, { headers: { 'x-forwarded-for': `${clientWrote}, ${proxyAppended}` } }).then(
        (response) => response.status,
      );
    const dodges = [await viaProxy('1.1.1.1', '203.0.113.7'), await viaProxy('2.2.2.2', '203.0.113.7'), await viaProxy('3.3.3.3', '203.0.113.7')];
    expect(dodges).toEqual([200, 200, 429]);
    expect(await viaProxy('3.3.3.3', '203.0.113.8')).toBe(200);
  });

  it('is off with a limit of 0', async () => {
    const url = await gateway(0);
    const statuses = await statusesOf(`${url}/api/guardian/groups`, 5);
    expect(statuses).toEqual([200, 200, 200, 200, 200]);
  });
});

/** Connected, or a failure: the Redis test must fail, not skip, when Redis is unreachable. */
async function readyRedis(url: string, timeoutMs: number): Promise<Redis> {
  const redis = connectRateLimitRedis(url, silentLogger());
  try {
    // once() also rejects on the client's first 'error' event, e.g. a refused connection.
    await once(redis, 'ready', { signal: AbortSignal.timeout(timeoutMs) });
    return redis;
  } catch (error) {
    redis.disconnect();
    throw error;
  }
}

describe('rate limiting with the Redis store', () => {
  it('counts in Redis under the configured prefix', async () => {
    const redis = await readyRedis('redis://127.0.0.1:6379', 3000);
    const prefix = `gateway-test:rate-limit:${randomUUID()}:`;
    try {
      const url = await gateway(2, { rateLimitStore: createRedisRateLimitStore(redis, prefix) });
      expect(await statusesOf(`${url}/api/guardian/groups`, 3)).toEqual([200, 200, 429]);
      const keys = await redis.keys(`${prefix}*`);
      expect(keys).toHaveLength(1);
      expect(await redis.get(keys[0])).toBe('3');
      expect(await redis.pttl(keys[0])).toBeGreaterThan(0);
    } finally {
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length > 0) await redis.del(...keys);
      await redis.quit();
    }
  });

  it('lets traffic through at once while Redis is unreachable', async () => {
    const redis = connectRateLimitRedis((await refusingUrl()).replace('http:', 'redis:'), silentLogger());
    try {
      const url = await gateway(1, { rateLimitStore: createRedisRateLimitStore(redis, `gateway-test:${randomUUID()}:`) });
      const { result, ms } = await timed(() => statusesOf(`${url}/api/guardian/groups`, 3));
      expect(result).toEqual([200, 200, 200]);
      expect(ms).toBeLessThan(2000);
    } finally {
      redis.disconnect();
    }
  });
});
