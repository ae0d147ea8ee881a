import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import type { Redis } from 'ioredis';
import { createMetrics, silentLogger, type Metrics } from '@ledger-api/observability';
import { waitFor } from '@ledger-api/test-kit';
import { connectRateLimitRedis, RATE_LIMIT_WINDOW_MS, redisSharedCounts, type SharedCounts } from './rate-limit';
import { refusingUrl, startFakeService, startGateway, type FakeService, type RunningServer } from './testing/gateway-harness';

let service: FakeService;
const gateways: RunningServer[] = [];

// Half way through a window that ends in the future: a test never straddles two windows.
const WINDOW_START = (Math.floor(Date.now() / RATE_LIMIT_WINDOW_MS) + 1) * RATE_LIMIT_WINDOW_MS;
const clock = () => WINDOW_START + RATE_LIMIT_WINDOW_MS / 2;

beforeAll(async () => {
  service = await startFakeService('guardian');
});

afterEach(async () => {
  await Promise.all(gateways.splice(0).map((gateway) => gateway.close()));
});

afterAll(async () => {
  await service.close();
});

interface LimitedGateway {
  limit: number;
  rateLimitCounts?: SharedCounts;
  metrics?: Metrics;
  env?: Record<string, string>;
}

async function gateway({ limit, rateLimitCounts, metrics, env = {} }: LimitedGateway): Promise<string> {
  const started = await startGateway(
    { GUARDIAN_URL: service.url, RATE_LIMIT_PER_MINUTE: String(limit), RATE_LIMIT_SYNC_MS: '10', ...env },
    { rateLimitCounts, metrics, clock },
  );
  gateways.push(started);
  return started.url;
}

async function statusesOf(url: string, count: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < count; i += 1) statuses.push((await fetch(url)).status);
  return statuses;
}

describe('rate limiting on one replica', () => {
  it('answers 429 in the error format with the standard and legacy headers', async () => {
    const url = await gateway({ limit: 2 });
    const allowed = await fetch(`${url}/api/guardian/groups`);
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('x-ratelimit-limit')).toBe('2');
    expect(allowed.headers.get('x-ratelimit-remaining')).toBe('1');
    expect(allowed.headers.get('ratelimit')).toBe('"2-in-1min"; r=1; t=30');
    expect(allowed.headers.get('ratelimit-policy')).toMatch(/^"2-in-1min"; q=2; w=60; pk=:[\w+/=]+:$/);
    await fetch(`${url}/api/guardian/groups`);

    const limited = await fetch(`${url}/api/guardian/groups`);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await limited.json()).toEqual({ statusCode: 429, error: 'Too Many Requests', message: expect.stringContaining('2 requests per minute') });
    expect(limited.headers.get('retry-after')).toBe('30');
    expect(limited.headers.get('ratelimit')).toBe('"2-in-1min"; r=0; t=30');
    expect(limited.headers.get('ratelimit-policy')).toBe(allowed.headers.get('ratelimit-policy'));
    expect(limited.headers.get('x-ratelimit-limit')).toBe('2');
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(Number(limited.headers.get('x-ratelimit-reset'))).toBe((WINDOW_START + RATE_LIMIT_WINDOW_MS) / 1000);
    expect(limited.headers.get('x-request-id')).toBeTruthy();
    expect(service.received.filter(({ url: path }) => path === '/guardian/groups')).toHaveLength(2);
  });

  it('counts the requests it refuses', async () => {
    const metrics = createMetrics('gateway', false);
    const url = await gateway({ limit: 1, metrics });
    expect(await statusesOf(`${url}/api/guardian/groups`, 3)).toEqual([200, 429, 429]);
    expect(await metrics.registry.metrics()).toContain('http_rate_limited_total{service="gateway"} 2');
  });

  it('limits unknown paths too but never the liveness probe', async () => {
    const url = await gateway({ limit: 1 });
    expect(await statusesOf(`${url}/nowhere`, 2)).toEqual([404, 429]);
    const response = await fetch(`${url}/livez`);
    expect(response.status).toBe(200);
    expect(response.headers.get('ratelimit')).toBeNull();
  });

  it('counts behind one appending proxy by the address it appended, whatever the client wrote before it', async () => {
    const url = await gateway({ limit: 2, env: { TRUST_PROXY: '1' } });
    const viaProxy = (clientWrote: string, proxyAppended: string) =>
      fetch(`${url}/api/guardian/groups`, { headers: { 'x-forwarded-for': `${clientWrote}, ${proxyAppended}` } }).then((response) => response.status);
    const dodges = [await viaProxy('1.1.1.1', '203.0.113.7'), await viaProxy('2.2.2.2', '203.0.113.7'), await viaProxy('3.3.3.3', '203.0.113.7')];
    expect(dodges).toEqual([200, 200, 429]);
    expect(await viaProxy('3.3.3.3', '203.0.113.8')).toBe(200);
    // An IPv6 client counts by its /56: other addresses of it do not dodge the limit.
    const subnet = [
      await viaProxy('1.1.1.1', '2001:db8:0:1::1'),
      await viaProxy('1.1.1.1', '2001:db8:0:2::2'),
      await viaProxy('1.1.1.1', '2001:db8:0:3::3'),
    ];
    expect(subnet).toEqual([200, 200, 429]);
    expect(await viaProxy('1.1.1.1', '2001:db8:0:100::1')).toBe(200);
  });

  it('is off with a limit of 0', async () => {
    const url = await gateway({ limit: 0 });
    const statuses = await statusesOf(`${url}/api/guardian/groups`, 5);
    expect(statuses).toEqual([200, 200, 200, 200, 200]);
  });
});

/** Shared counts in a Map; `sharedTotal` is what the last completed sync answered for a client. */
function sharedInMemory(): SharedCounts & { sharedTotal(key: string): number } {
  const totals = new Map<string, number>();
  const answered = new Map<string, number>();
  return {
    sharedTotal: (key) => answered.get(key) ?? 0,
    async add(windowStart, hits) {
      const answer = new Map<string, number>();
      for (const [key, added] of hits) {
        const total = (totals.get(`${windowStart}:${key}`) ?? 0) + added;
        totals.set(`${windowStart}:${key}`, total);
        answer.set(key, total);
      }
      for (const [key, total] of answer) answered.set(key, total);
      return answer;
    },
  };
}

describe('rate limiting across replicas', () => {
  it('counts what other replicas let through once it has synced', async () => {
    const shared = sharedInMemory();
    const [first, second] = [await gateway({ limit: 3, rateLimitCounts: shared }), await gateway({ limit: 3, rateLimitCounts: shared })];
    expect(await statusesOf(`${first}/api/guardian/groups`, 2)).toEqual([200, 200]);
    await waitFor(() => shared.sharedTotal('127.0.0.1') === 2, 'the first replica shares its hits');
    // Its own count is 1 here; the other replica's 2 hits arrive with its sync.
    expect(await statusesOf(`${second}/api/guardian/groups`, 1)).toEqual([200]);
    await waitFor(() => shared.sharedTotal('127.0.0.1') === 3, 'the second replica shares its hit');
    const refused = await fetch(`${second}/api/guardian/groups`);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
  });

  it.each<[string, SharedCounts['add']]>([
    ['fail', () => Promise.reject(new Error('connection refused'))],
    // A request that waited for the shared counts would never be answered.
    ['never answer', () => new Promise(() => {})],
  ])('keeps limiting on its own counts, without waiting, while the shared counts %s', async (_case, add) => {
    const url = await gateway({ limit: 1, rateLimitCounts: { add } });
    expect(await statusesOf(`${url}/api/guardian/groups`, 3)).toEqual([200, 429, 429]);
  });

  it('says in its metrics whether the limit is shared or held per replica', async () => {
    let failing = true;
    const shared = sharedInMemory();
    const add: SharedCounts['add'] = (windowStart, hits) =>
      failing ? Promise.reject(new Error('connection refused')) : shared.add(windowStart, hits);
    const metrics = createMetrics('gateway', false);
    const metric = async (name: string) => (await metrics.registry.getSingleMetric(name)?.get())?.values[0]?.value;
    const url = await gateway({ limit: 10, rateLimitCounts: { add }, metrics });
    expect(await metric('gateway_rate_limit_shared')).toBe(1);
    await statusesOf(`${url}/api/guardian/groups`, 1);
    await waitFor(async () => (await metric('gateway_rate_limit_shared')) === 0, 'a failed sync to show');
    expect(await metric('gateway_rate_limit_sync_failures_total')).toBeGreaterThanOrEqual(1);
    failing = false;
    await waitFor(async () => (await metric('gateway_rate_limit_shared')) === 1, 'the next sync to reach the shared counts');
    expect(shared.sharedTotal('127.0.0.1')).toBe(1);
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

describe('rate limiting with Redis', () => {
  it('adds each replica’s hits to one count per client and window, expiring after the window', async () => {
    const redis = await readyRedis('redis://127.0.0.1:6379', 3000);
    const prefix = `gateway-test:rate-limit:${randomUUID()}:`;
    try {
      const [first, second] = [
        await gateway({ limit: 2, rateLimitCounts: redisSharedCounts(redis, prefix) }),
        await gateway({ limit: 2, rateLimitCounts: redisSharedCounts(redis, prefix) }),
      ];
      expect(await statusesOf(`${first}/api/guardian/groups`, 3)).toEqual([200, 200, 429]);
      expect(await statusesOf(`${second}/api/guardian/groups`, 1)).toEqual([200]);
      await waitFor(async () => (await redis.keys(`${prefix}*`)).length === 1, 'the count reaches Redis');
      const [key] = await redis.keys(`${prefix}*`);
      expect(key.startsWith(`${prefix}${WINDOW_START}:`)).toBe(true);
      await waitFor(async () => (await redis.get(key)) === '4', 'both replicas have shared their hits');
      expect(await redis.pexpiretime(key)).toBe(WINDOW_START + 2 * RATE_LIMIT_WINDOW_MS);
    } finally {
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length > 0) await redis.del(...keys);
      await redis.quit();
    }
  });

  it('keeps limiting on its own counts while Redis is unreachable', async () => {
    const redis = connectRateLimitRedis((await refusingUrl()).replace('http:', 'redis:'), silentLogger());
    try {
      const url = await gateway({ limit: 1, rateLimitCounts: redisSharedCounts(redis, `gateway-test:${randomUUID()}:`) });
      expect(await statusesOf(`${url}/api/guardian/groups`, 3)).toEqual([200, 429, 429]);
    } finally {
      redis.disconnect();
    }
  });
});
