import { Writable } from 'node:stream';
import { createLogger, type Logger } from '@ledger-api/observability';
import { waitFor } from '@ledger-api/test-kit';
import { startFakeArea, type FakeArea } from '../testing/fake-area';
import { send, startGateway, type RunningGateway } from '../testing/gateway-harness';

let area: FakeArea;
const gateways: RunningGateway[] = [];

async function gatewayOver(env: Record<string, string> = {}, logger?: Logger): Promise<RunningGateway> {
  const gateway = await startGateway({ NFT_BASE_URL: area.url, FEED_RECONNECT_MS: '20', ...env }, { edge: true, logger });
  gateways.push(gateway);
  await waitFor(() => gateway.edge?.feeds.get('nft-base')?.status() === 'live', 'the area feed');
  return gateway;
}

/** The generation the answer was rendered at, and whether the service rendered it for this request. */
async function ask(gateway: RunningGateway, path = '/api/nft/assets?limit=2', headers: Record<string, string> = {}) {
  const rendersBefore = area.renders;
  const answer = await send(`${gateway.url}${path}`, { headers });
  const generation = answer.body ? (JSON.parse(answer.body) as { data?: { generation: number } }).data?.generation : undefined;
  return { ...answer, generation, proxied: area.renders > rendersBefore };
}

/** Requests that waited at the gateway for the same request in flight. */
async function waitsOf(gateway: RunningGateway): Promise<number> {
  const text = await gateway.metrics.registry.getSingleMetricAsString('edge_cache_waits_total');
  return Number(/area="nft-base"[^\n]*\} (\d+)/.exec(text)?.[1] ?? 0);
}

/** Sends the same request `count` times at once while the service holds its pages, releasing them once `waiting` requests wait at the gateway. */
async function askAtOnce(gateway: RunningGateway, count: number, waiting: number) {
  const release = area.holdPages();
  const waitsBefore = await waitsOf(gateway);
  const answers = Promise.all(Array.from({ length: count }, () => send(`${gateway.url}/api/nft/assets?limit=2`)));
  await waitFor(async () => (await waitsOf(gateway)) === waitsBefore + waiting, 'the requests to wait at the gateway');
  release();
  return (await answers).map((answer) => ({
    status: answer.status,
    generation: (JSON.parse(answer.body) as { data: { generation: number } }).data.generation,
  }));
}

beforeEach(async () => {
  area = await startFakeArea('/nft');
});

afterEach(async () => {
  await Promise.all(gateways.splice(0).map((gateway) => gateway.close()));
  await area.close();
});

describe('the edge cache', () => {
  it('answers a repeated request itself while its commit is the newest, and moves on with the next commit at once', async () => {
    const gateway = await gatewayOver();
    expect(await ask(gateway)).toMatchObject({ status: 200, proxied: true, generation: 1 });
    const hit = await ask(gateway);
    expect(hit).toMatchObject({ status: 200, proxied: false, generation: 1 });
    expect(hit.headers['x-ledger-commit']).toBeUndefined();

    area.commit();
    await waitFor(async () => (await ask(gateway)).generation === 2, 'the answer of the new commit');
    expect(await ask(gateway)).toMatchObject({ proxied: false, generation: 2 });

    // A revert is a new commit too: nothing of the state before it is answered again.
    area.commit('block.reverted');
    await waitFor(async () => (await ask(gateway)).generation === 3, 'the answer after the revert');
    expect(await ask(gateway)).toMatchObject({ proxied: false, generation: 3 });
  });

  it('proxies the area while its feed is lost, and answers at the edge again once it is back', async () => {
    const gateway = await gatewayOver();
    await ask(gateway);
    expect((await ask(gateway)).proxied).toBe(false);

    area.dropFeed();
    await waitFor(() => gateway.edge?.feeds.get('nft-base')?.status() === 'lost', 'the feed to be lost');
    area.commit('block.applied', false);
    expect(await ask(gateway)).toMatchObject({ proxied: true, generation: 2 });
    expect(await ask(gateway)).toMatchObject({ proxied: true, generation: 2 });

    area.restoreFeed();
    await waitFor(() => gateway.edge?.feeds.get('nft-base')?.status() === 'live', 'the feed to be back');
    await ask(gateway);
    expect(await ask(gateway)).toMatchObject({ proxied: false, generation: 2 });
  });

  it('never keeps an answer of an older commit than the newest, and proxies while a service is ahead of the feed', async () => {
    const gateway = await gatewayOver();
    area.commit();
    await waitFor(() => gateway.edge?.feeds.get('nft-base')?.edgeCommit()?.generation === 2, 'the feed to announce commit 2');

    area.answerFrom(1);
    expect(await ask(gateway)).toMatchObject({ proxied: true, generation: 1 });
    expect(await ask(gateway)).toMatchObject({ proxied: true, generation: 1 });
    area.answerFrom(undefined);

    // The service moved on before the feed said so: the gateway cannot vouch for any answer until it does.
    area.commit('block.applied', false);
    expect(await ask(gateway)).toMatchObject({ proxied: true, generation: 3 });
    expect(await ask(gateway)).toMatchObject({ proxied: true, generation: 3 });
    area.announce();
    await waitFor(() => gateway.edge?.feeds.get('nft-base')?.edgeCommit()?.generation === 3, 'the feed to catch up');
    await ask(gateway);
    expect(await ask(gateway)).toMatchObject({ proxied: false, generation: 3 });
  });

  it('renders a page once for concurrent misses of it, and proxies the waiting requests when that answer cannot be kept', async () => {
    const gateway = await gatewayOver();
    const rendersBefore = area.renders;
    expect(await askAtOnce(gateway, 5, 4)).toEqual(Array(5).fill({ status: 200, generation: 1 }));
    expect(area.renders).toBe(rendersBefore + 1);

    area.commit();
    await waitFor(() => gateway.edge?.feeds.get('nft-base')?.edgeCommit()?.generation === 2, 'the feed to announce commit 2');
    // A trailing replica: its answer is of an older commit and may not be kept, so each waiting request asks again.
    area.answerFrom(1);
    expect(await askAtOnce(gateway, 3, 2)).toEqual(Array(3).fill({ status: 200, generation: 1 }));
    expect(area.renders).toBe(rendersBefore + 4);
  });

  it('serves two gateways from one feed, each moving on with every commit', async () => {
    const [first, second] = [await gatewayOver(), await gatewayOver()];
    for (const gateway of [first, second]) {
      await ask(gateway);
      expect((await ask(gateway)).proxied).toBe(false);
    }
    area.commit();
    for (const gateway of [first, second]) {
      await waitFor(async () => (await ask(gateway)).generation === 2, 'the new commit at each gateway');
      expect(await ask(gateway)).toMatchObject({ proxied: false, generation: 2 });
    }
  });

  it('answers HEAD and a matching If-None-Match from a kept page, keys by encoding and body, and stays within its bound', async () => {
    const gateway = await gatewayOver({ EDGE_CACHE_MB: '1' });
    const page = await ask(gateway);
    const head = await send(`${gateway.url}/api/nft/assets?limit=2`, { method: 'HEAD' });
    expect(head).toMatchObject({ status: 200, body: '' });
    expect(head.headers['content-length']).toBe(page.headers['content-length']);
    const notModified = await ask(gateway, '/api/nft/assets?limit=2', { 'if-none-match': String(page.headers.etag) });
    expect(notModified).toMatchObject({ status: 304, body: '', proxied: false });
    expect(notModified.headers['content-type']).toBeUndefined();
    expect(notModified.headers.etag).toBe(page.headers.etag);

    expect((await ask(gateway, '/api/nft/assets?limit=2', { 'accept-encoding': 'br' })).proxied).toBe(true);
    const search = (body: string) =>
      send(`${gateway.url}/api/nft/assets/search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    await search('{"a":1}');
    const rendersBefore = area.renders;
    expect(JSON.parse((await search('{"a":1}')).body).data.body).toBe('{"a":1}');
    expect(JSON.parse((await search('{"a":2}')).body).data.body).toBe('{"a":2}');
    expect(area.renders).toBe(rendersBefore + 1);

    const long = 'x'.repeat(2_000);
    for (let index = 0; index < 1_500; index += 1) await ask(gateway, `/api/nft/assets?q=${index}-${long}`);
    expect(gateway.edge?.cache?.bytes).toBeLessThanOrEqual(1024 * 1024);
    expect(gateway.edge?.cache?.bytes).toBeGreaterThan(512 * 1024);
  });

  it('keeps only answers the service marks storable: never a batch, even one that tells clients it is public', async () => {
    const gateway = await gatewayOver();
    const post = (path: string, body: string) =>
      send(`${gateway.url}/api/nft/assets/${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    area.tellClients('public, max-age=31536000, immutable');
    const rendersBefore = area.renders;
    const batches = [await post('batch', '{"ids":["a"]}'), await post('batch', '{"ids":["a"]}'), await post('batch', '{"ids":["a"]}')];
    expect(area.renders).toBe(rendersBefore + 3);
    expect(gateway.edge?.cache?.bytes).toBe(0);

    const searches = [await post('search', '{"a":1}'), await post('search', '{"a":1}')];
    expect(area.renders).toBe(rendersBefore + 4);
    expect(gateway.edge?.cache?.bytes).toBeGreaterThan(0);
    for (const answer of [...batches, ...searches]) {
      expect(answer.status).toBe(200);
      expect(answer.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(Object.keys(answer.headers).filter((name) => name.startsWith('x-ledger-'))).toEqual([]);
    }
    const metrics = await gateway.metrics.registry.getSingleMetricAsString('edge_cache_requests_total');
    expect(metrics).toMatch(/area="nft-base",result="hit"[^\n]*\} 1$/m);
    expect(metrics).toMatch(/area="nft-base",result="miss"[^\n]*\} 4$/m);
  });

  it('answers a hit with every header the proxied answer carried: its id, the fixed headers, the rate limit and the page', async () => {
    const gateway = await gatewayOver({ RATE_LIMIT_PER_MINUTE: '100' });
    const miss = await ask(gateway, '/api/nft/assets?limit=2', { 'x-request-id': 'first' });
    const hit = await ask(gateway, '/api/nft/assets?limit=2', { 'x-request-id': 'second', origin: 'https://example.org' });
    expect([miss.proxied, hit.proxied]).toEqual([true, false]);
    expect([miss.headers['x-request-id'], hit.headers['x-request-id']]).toEqual(['first', 'second']);
    expect([miss.headers['x-ratelimit-remaining'], hit.headers['x-ratelimit-remaining']]).toEqual(['99', '98']);
    expect(hit.headers.ratelimit).toMatch(/^"100-in-1min"; r=98; t=\d+$/);
    // What a page is, and what the gateway adds to every answer, are the same either way; how it was sent may not be.
    const sending = ['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length'];
    const varying = new Set([...sending, 'x-request-id', 'ratelimit', 'x-ratelimit-remaining', 'x-ratelimit-reset']);
    const steady = (headers: Record<string, unknown>) => Object.entries(headers).filter(([name]) => !varying.has(name));
    expect(Object.fromEntries(steady(hit.headers))).toEqual(Object.fromEntries(steady(miss.headers)));
    expect(hit.headers['access-control-allow-origin']).toBe('*');
    expect(hit.headers.etag).toBeDefined();
    expect(hit.body).toBe(miss.body);
  });

  it('still counts edge answers against the rate limit', async () => {
    const gateway = await gatewayOver({ RATE_LIMIT_PER_MINUTE: '3' });
    const statuses = [];
    for (let index = 0; index < 4; index += 1) statuses.push((await ask(gateway)).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
  });

  it('logs an edge answer as one, and counts every request by what the edge did', async () => {
    const lines: Record<string, unknown>[] = [];
    const sink = new Writable({ write: (chunk, _encoding, done) => done(void lines.push(JSON.parse(String(chunk)))) });
    const gateway = await gatewayOver({}, createLogger({ name: 'gateway', destination: sink }));
    await send(`${gateway.url}/api/nft/assets`, { headers: { 'x-request-id': 'edge-miss' } });
    await send(`${gateway.url}/api/nft/assets`, { headers: { 'x-request-id': 'edge-hit' } });
    await waitFor(() => lines.filter((line) => String(line.reqId).startsWith('edge-')).length === 2, 'both log lines');
    expect(lines.find((line) => line.reqId === 'edge-hit')).toMatchObject({ statusCode: 200, edge: true });
    expect(lines.find((line) => line.reqId === 'edge-miss')?.edge).toBeUndefined();
    const metrics = await gateway.metrics.registry.getSingleMetricAsString('edge_cache_requests_total');
    expect(metrics).toMatch(/area="nft-base",result="hit"[^\n]*\} 1/);
    expect(metrics).toMatch(/area="nft-base",result="miss"[^\n]*\} 1/);
  });

  it('proxies every request when EDGE_CACHE_MB is 0', async () => {
    const gateway = await gatewayOver({ EDGE_CACHE_MB: '0' });
    await ask(gateway);
    expect((await ask(gateway)).proxied).toBe(true);
  });
});

describe('answers kept until the area’s data changes', () => {
  const commitAnnounced = async (gateway: RunningGateway, kind: 'block.applied' | 'block.reverted', changesData: boolean) => {
    area.commit(kind, true, changesData);
    const generation = area.generation;
    await waitFor(() => gateway.edge?.feeds.get('nft-base')?.edgeCommit()?.generation === generation, `the feed to announce commit ${generation}`);
  };
  const headOf = (answer: { headers: Record<string, unknown> }) => [answer.headers['x-block-height'], answer.headers['x-block-id']];
  /** The next request is proxied and rendered at `generation`, sent with the head block `head`; the one after is answered at the edge. */
  const renderedAgain = async (gateway: RunningGateway, generation: number, head: string[], path = '/api/nft/assets?limit=2') => {
    const answer = await ask(gateway, path);
    expect(answer).toMatchObject({ proxied: true, generation });
    expect(headOf(answer)).toEqual(head);
    expect(await ask(gateway, path)).toMatchObject({ proxied: false, generation });
  };

  it('keeps an answer across blocks that changed nothing of the area, sent with the head block, and drops it at one that did', async () => {
    const gateway = await gatewayOver();
    const first = await ask(gateway);
    expect(first).toMatchObject({ proxied: true, generation: 1 });
    expect(headOf(first)).toEqual(['1', 'block-1']);

    await commitAnnounced(gateway, 'block.applied', false);
    const frontAndExpress: Array<Record<string, string>> = [{}, { 'content-length': '0' }];
    for (const headers of frontAndExpress) {
      const kept = await ask(gateway, '/api/nft/assets?limit=2', headers);
      expect(kept).toMatchObject({ status: 200, proxied: false, generation: 1, body: first.body });
      expect(headOf(kept)).toEqual(['2', 'block-2']);
      expect(kept.headers.etag).toBe(first.headers.etag);
    }
    const notModified = await ask(gateway, '/api/nft/assets?limit=2', { 'if-none-match': String(first.headers.etag) });
    expect(notModified).toMatchObject({ status: 304, proxied: false });
    expect(headOf(notModified)).toEqual(['2', 'block-2']);

    await commitAnnounced(gateway, 'block.applied', true);
    await renderedAgain(gateway, 3, ['3', 'block-3']);
  });

  it('keeps it across the revert of a block that changed nothing of the area, and never reopens an earlier state’s after one that did', async () => {
    const gateway = await gatewayOver();
    await ask(gateway);
    await commitAnnounced(gateway, 'block.applied', false);
    await commitAnnounced(gateway, 'block.reverted', false);
    const kept = await ask(gateway);
    expect(kept).toMatchObject({ proxied: false, generation: 1 });
    expect(headOf(kept)).toEqual(['1', 'block-1']);

    await commitAnnounced(gateway, 'block.applied', true);
    await renderedAgain(gateway, 4, ['2', 'block-2']);
    await commitAnnounced(gateway, 'block.reverted', true);
    await renderedAgain(gateway, 5, ['1', 'block-1']);
  });

  it('keeps an answer the service says holds for its block only (an expiry flag) for that commit alone', async () => {
    const gateway = await gatewayOver();
    const path = '/api/nft/assets?expired=true';
    await renderedAgain(gateway, 1, ['1', 'block-1'], path);
    await commitAnnounced(gateway, 'block.applied', false);
    await renderedAgain(gateway, 2, ['2', 'block-2'], path);
  });
});
