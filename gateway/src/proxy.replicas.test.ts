import type { ServerResponse } from 'node:http';
import { createMetrics } from '@ledger-api/observability';
import { waitFor } from '@ledger-api/test-kit';
import {
  refusingUrl,
  send,
  startFakeService,
  startGateway,
  type FakeService,
  type RunningServer,
  type UpstreamHandler,
} from './testing/gateway-harness';

const servers: RunningServer[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function replica(name: string, handler?: UpstreamHandler): Promise<FakeService> {
  const service = await startFakeService(name, handler);
  servers.push(service);
  return service;
}

async function gateway(NFT_BASE_URL: string, metrics = createMetrics('gateway', false)) {
  const started = await startGateway({ NFT_BASE_URL, UPSTREAM_RECHECK_MS: '20' }, { metrics });
  servers.push(started);
  return started.url;
}

const servedBy = async (url: string, path = '/api/nft/assets', method = 'GET') => {
  const answer = await send(`${url}${path}`, {
    method,
    ...(method === 'POST' && { headers: { 'content-type': 'application/json' }, body: '{"a":1}' }),
  });
  return answer.status === 200 ? (JSON.parse(answer.body) as { service: string }).service : `status ${answer.status}`;
};

const askTimes = (count: number, ask: () => Promise<string>) =>
  Array.from({ length: count }).reduce<Promise<string[]>>(async (earlier, _) => [...(await earlier), await ask()], Promise.resolve([]));

describe('an area of several replicas', () => {
  it('takes the replicas in turn', async () => {
    const [one, two] = await Promise.all([replica('one'), replica('two')]);
    const url = await gateway(`${one.url},${two.url}`);
    const answers = await askTimes(6, () => servedBy(url));
    expect(answers.sort()).toEqual(['one', 'one', 'one', 'two', 'two', 'two']);
  });

  it('sends a request a replica refused to another, a POST too, and sets the refusing one aside', async () => {
    const two = await replica('two');
    const metrics = createMetrics('gateway', false);
    const url = await gateway(`${await refusingUrl()},${two.url}`, metrics);
    // The first request is refused by the first replica in turn.
    expect(await servedBy(url, '/api/nft/assets/search', 'POST')).toBe('two');
    expect(two.received.map(({ method, body }) => [method, body])).toEqual([['POST', '{"a":1}']]);
    expect(await askTimes(4, () => servedBy(url))).toEqual(['two', 'two', 'two', 'two']);
    // Refused once, then set aside: the other requests went straight to the replica that serves.
    expect(await metrics.registry.metrics()).toMatch(/gateway_upstream_retries_total\{upstream="nft-base",service="gateway"\} 1\n/);
  });

  it('does not send the client address twice to the replica that answers after a refusal', async () => {
    const two = await replica('two');
    const url = await gateway(`${await refusingUrl()},${two.url}`);
    await send(`${url}/api/nft/assets`, { headers: { 'x-forwarded-for': '203.0.113.9' } });
    expect(two.received[0].headers['x-forwarded-for']).toBe('203.0.113.9,127.0.0.1');
  });

  it('retries a GET cut off before any answer on another replica, but not a POST', async () => {
    const cutting = await replica('cutting', (req, res) => res.socket?.destroy());
    const two = await replica('two');
    const url = await gateway(`${cutting.url},${two.url}`);
    const gets = await askTimes(4, () => servedBy(url));
    expect(gets).toEqual(['two', 'two', 'two', 'two']);
    expect(cutting.received.length).toBeGreaterThan(0);
    const posts = await askTimes(4, () => servedBy(url, '/api/nft/assets/search', 'POST'));
    expect(posts.sort()).toEqual(['status 503', 'status 503', 'two', 'two']);
  });

  it('sends nothing to a replica that answered 503 until it serves again', async () => {
    let replaying = true;
    const restarted = await replica('restarted', (req, res) => {
      if (!replaying) return res.writeHead(200, { 'content-type': 'application/json' }).end('{"service":"restarted"}');
      res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '5' }).end('{}');
    });
    const two = await replica('two');
    const url = await gateway(`${restarted.url},${two.url}`);
    const answers = await askTimes(6, () => servedBy(url));
    // Its one 503 reaches the client (an answer is not sent twice); the rest go to the other replica.
    expect(answers).toEqual(['status 503', 'two', 'two', 'two', 'two', 'two']);
    // Only its configuration was asked for meanwhile; once that answers, the replica is taken in turn again.
    await waitFor(() => restarted.received.some(({ url: path }) => path === '/nft/configurations'), 'a probe of the replica');
    replaying = false;
    await waitFor(async () => (await servedBy(url)) === 'restarted', 'the replica back in turn');
    expect(two.received.length).toBeGreaterThan(0);
  });
});

describe('an area behind one address', () => {
  /** Answers a connection's first request and resets the connection on any later one, as a replica closing it would. */
  const firstOnEachConnection = () => {
    const answered = new WeakSet<object>();
    return (_req: unknown, res: ServerResponse) => {
      if (!res.socket || answered.has(res.socket)) return res.socket?.destroy();
      answered.add(res.socket);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"service":"fresh"}');
    };
  };

  it('sends a GET reset on a kept-alive connection once more, on a new connection to the same address', async () => {
    const service = await replica('behind', firstOnEachConnection());
    const metrics = createMetrics('gateway', false);
    const url = await gateway(service.url, metrics);
    expect(await askTimes(3, () => servedBy(url))).toEqual(['fresh', 'fresh', 'fresh']);
    // The first opened the connection, the second was reset on it and answered on a new one; the third found none kept.
    expect(service.received.map(({ headers }) => headers['x-request-id'])).toEqual([
      expect.any(String),
      expect.any(String),
      service.received[1].headers['x-request-id'],
      expect.any(String),
    ]);
    expect(await metrics.registry.metrics()).toMatch(/gateway_upstream_retries_total\{upstream="nft-base",service="gateway"\} 1\n/);
  });

  it('sends neither a POST reset on a kept-alive connection nor a GET reset on a new one again', async () => {
    const service = await replica('behind', firstOnEachConnection());
    const url = await gateway(service.url);
    expect(await servedBy(url)).toBe('fresh');
    expect(await servedBy(url, '/api/nft/assets/search', 'POST')).toBe('status 503');
    const cutting = await replica('cutting', (_req, res) => res.socket?.destroy());
    expect(await servedBy(await gateway(cutting.url))).toBe('status 503');
    expect([service.received.length, cutting.received.length]).toEqual([2, 1]);
  });
});
