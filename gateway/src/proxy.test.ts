import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';
import { brotliCompressSync } from 'node:zlib';
import { createMetrics } from '@ledger-api/observability';
import { expectWithinDeadline } from '@ledger-api/test-kit';
import {
  rawGet,
  refusingUrl,
  sendForBytes,
  startFakeService,
  startGateway,
  timed,
  type FakeService,
  type RunningServer,
} from './testing/gateway-harness';

const services: FakeService[] = [];
const gateways: RunningServer[] = [];

async function fakeService(...args: Parameters<typeof startFakeService>) {
  const service = await startFakeService(...args);
  services.push(service);
  return service;
}

async function gateway(env: Record<string, string>, options: Parameters<typeof startGateway>[1] = {}) {
  const started = await startGateway(env, options);
  gateways.push(started);
  return started;
}

afterEach(async () => {
  await Promise.all([...gateways.splice(0), ...services.splice(0)].map((server) => server.close()));
});

async function expectErrorBody(response: Response, statusCode: number, message: string) {
  expect(response.status).toBe(statusCode);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  expect(response.headers.get('x-request-id')).toBeTruthy();
  expect(await response.json()).toEqual({ statusCode, error: expect.any(String), message });
}

describe('routing to the three areas', () => {
  let guardian: FakeService;
  let nftBase: FakeService;
  let nftExchange: FakeService;
  let url: string;

  beforeEach(async () => {
    [guardian, nftBase, nftExchange] = await Promise.all([fakeService('guardian'), fakeService('nft-base'), fakeService('nft-exchange')]);
    ({ url } = await gateway({ GUARDIAN_URL: guardian.url, NFT_BASE_URL: nftBase.url, NFT_EXCHANGE_URL: nftExchange.url }));
  });

  it.each([
    ['/api/guardian/groups', 'guardian', '/guardian/groups'],
    ['/api/nft/collections', 'nft-base', '/nft/collections'],
    ['/api/nft/exchange/x', 'nft-exchange', '/nft/exchange/x'],
    ['/api/nft/exchange/auctions/abc/wallets', 'nft-exchange', '/nft/exchange/auctions/abc/wallets'],
    ['/api/nft/exchanges', 'nft-base', '/nft/exchanges'],
  ])('%s goes to %s as %s', async (path, service, upstreamPath) => {
    const response = await fetch(`${url}${path}`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ service, url: upstreamPath });
    expect(response.headers.get('x-block-height')).toBe('7');
  });

  it('passes the path rest and query string through byte for byte', async () => {
    // Raw request: fetch would normalise the URL before sending it.
    const query = "?name=Test%25&orderBy=timestamp%3Adesc&empty=&dup=1&dup=2&raw=a:b&quote=O'Brien&plus=a+b&pipe=|&bs=\\";
    const answer = await rawGet(url, `/api/guardian/groups/back\\slash${query}`);
    expect(JSON.parse(answer.body)).toMatchObject({ url: `/guardian/groups/back\\slash${query}` });
  });

  it('passes a POST JSON body through unchanged', async () => {
    const body = '{ "name" : "x",\n  "nested": {"a": [1, 2.50, "ü"]} }';
    const response = await fetch(`${url}/api/nft/collections/search?limit=5`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    expect(await response.json()).toEqual({ service: 'nft-base', method: 'POST', url: '/nft/collections/search?limit=5', body });
    expect(nftBase.received[0].headers['content-type']).toBe('application/json');
  });

  it('passes malformed JSON on for the service to judge', async () => {
    const response = await fetch(`${url}/api/nft/exchange/auctions/search`, { method: 'POST', body: '{"broken"' });
    expect(await response.json()).toMatchObject({ service: 'nft-exchange', body: '{"broken"' });
  });

  it('generates a request id, passes it on and echoes it', async () => {
    const response = await fetch(`${url}/api/guardian/users`);
    const requestId = response.headers.get('x-request-id');
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(guardian.received[0].headers['x-request-id']).toBe(requestId);
  });

  it('keeps a client request id', async () => {
    const response = await fetch(`${url}/api/nft/assets`, { headers: { 'x-request-id': 'client-id.42:a_b' } });
    expect(response.headers.get('x-request-id')).toBe('client-id.42:a_b');
    expect(nftBase.received[0].headers['x-request-id']).toBe('client-id.42:a_b');
  });

  it("adds the gateway's hop to the X-Forwarded-* headers a service receives", async () => {
    const port = new URL(url).port;
    await fetch(`${url}/api/nft/assets`);
    expect(nftBase.received[0].headers).toMatchObject({
      'x-forwarded-for': '127.0.0.1',
      'x-forwarded-port': port,
      'x-forwarded-proto': 'http',
      'x-forwarded-host': `127.0.0.1:${port}`,
    });
    const client = { 'x-forwarded-for': '203.0.113.9', 'x-forwarded-port': '443', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'api.example' };
    await fetch(`${url}/api/nft/assets`, { headers: client });
    expect(nftBase.received[1].headers).toMatchObject({
      'x-forwarded-for': '203.0.113.9,127.0.0.1',
      'x-forwarded-port': `443,${port}`,
      'x-forwarded-proto': 'https,http',
      'x-forwarded-host': 'api.example',
    });
  });

  it('replaces an unacceptable client request id', async () => {
    const response = await fetch(`${url}/api/nft/assets`, { headers: { 'x-request-id': 'x'.repeat(200) } });
    const requestId = response.headers.get('x-request-id');
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(nftBase.received[0].headers['x-request-id']).toBe(requestId);
  });

  it.each([
    '/',
    '/api',
    '/api/',
    '/api/unknown',
    '/apix/guardian',
    '/api/nftx/collections',
    '/livez/extra',
    '/API/guardian/groups',
    '/api/Guardian/groups',
    '/API/nft/assets',
    '/api/NFT/assets',
    '/Api/nft/exchange/auctions',
  ])('answers %s with the 404 error body', async (path) => {
    await expectErrorBody(await fetch(`${url}${path}`), 404, 'Not Found');
    expect([...guardian.received, ...nftBase.received, ...nftExchange.received]).toEqual([]);
  });
});

describe('areas that cannot be reached', () => {
  it('answers 503 for an area with no URL configured', async () => {
    const guardian = await fakeService('guardian');
    const { url } = await gateway({ GUARDIAN_URL: guardian.url });
    const unconfigured = await fetch(`${url}/api/nft/exchange/auctions`);
    expect(unconfigured.headers.get('retry-after')).toBe('5');
    await expectErrorBody(unconfigured, 503, 'nft-exchange service is not available');
    await expectErrorBody(await fetch(`${url}/api/nft/assets`), 503, 'nft-base service is not available');
    expect((await fetch(`${url}/api/guardian/groups`)).status).toBe(200);
  });

  it('answers 503 when the service refuses connections, not waiting for the proxy timeout', async () => {
    const { url } = await gateway({ NFT_BASE_URL: await refusingUrl(), PROXY_TIMEOUT_MS: '60000' });
    const result = await fetch(`${url}/api/nft/collections`);
    expect(result.headers.get('retry-after')).toBe('5');
    // The proxy timeout is past the test's own: only an answer to the refusal itself comes in time.
    await expectErrorBody(result, 503, 'nft-base service is not available');
  });

  it('answers 503 within the proxy timeout when the service never answers', async () => {
    const silent = await fakeService('guardian', () => undefined);
    const proxyTimeoutMs = 300;
    const { url } = await gateway({ GUARDIAN_URL: silent.url, PROXY_TIMEOUT_MS: String(proxyTimeoutMs) });
    const { result, ms } = await timed(() => fetch(`${url}/api/guardian/groups`));
    expect(result.headers.get('retry-after')).toBe('5');
    await expectErrorBody(result, 503, 'guardian service did not answer in time');
    expect(ms).toBeGreaterThanOrEqual(proxyTimeoutMs - 10);
    expectWithinDeadline(ms, proxyTimeoutMs);
  });

  it('answers 503 with Retry-After when the service goes away without an answer', async () => {
    const dropping = await fakeService('guardian', (_req, res) => res.socket?.destroy());
    const { url } = await gateway({ GUARDIAN_URL: dropping.url });
    const response = await fetch(`${url}/api/guardian/groups`);
    expect(response.headers.get('retry-after')).toBe('5');
    await expectErrorBody(response, 503, 'guardian service is not available');
  });

  it('answers 502 when the service answers with something that is not HTTP', async () => {
    const garbage = createServer((socket) => socket.end('SMTP ready\r\n\r\n'));
    garbage.listen(0, '127.0.0.1');
    await once(garbage, 'listening');
    try {
      const { url } = await gateway({ GUARDIAN_URL: `http://127.0.0.1:${(garbage.address() as AddressInfo).port}` });
      await expectErrorBody(await fetch(`${url}/api/guardian/groups`), 502, 'guardian service sent no valid answer');
    } finally {
      garbage.close();
    }
  });

  it('cuts the client connection when the service stalls in the middle of a body', async () => {
    const stalling = await fakeService('nft-base', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"data": [');
    });
    const proxyTimeoutMs = 300;
    const { url } = await gateway({ NFT_BASE_URL: stalling.url, PROXY_TIMEOUT_MS: String(proxyTimeoutMs) });
    const response = await fetch(`${url}/api/nft/assets`);
    expect(response.status).toBe(200);
    const { result, ms } = await timed(() =>
      response.text().then(
        () => 'complete',
        () => 'cut',
      ),
    );
    expect(result).toBe('cut');
    expectWithinDeadline(ms, proxyTimeoutMs);
  });
});

describe('encoded answers', () => {
  const page = Buffer.from(JSON.stringify({ data: Array.from({ length: 60 }, (_, index) => ({ id: index, name: `asset ${index}` })) }));
  const encoded = brotliCompressSync(page);
  const etag = '"page-br"';
  let url: string;
  let metrics: ReturnType<typeof createMetrics>;

  beforeEach(async () => {
    // What a service sends a client that accepts br: the page's br form with its own ETag, or 304.
    const service = await fakeService('nft-base', (req, res) => {
      const headers = { 'content-type': 'application/json; charset=utf-8', etag, vary: 'Accept-Encoding', 'cache-control': 'no-cache' };
      if (req.headers['if-none-match'] === etag) return res.writeHead(304, headers).end();
      res.writeHead(200, { ...headers, 'content-encoding': 'br', 'content-length': encoded.length }).end(req.method === 'HEAD' ? undefined : encoded);
    });
    metrics = createMetrics('gateway', false);
    ({ url } = await gateway({ NFT_BASE_URL: service.url }, { metrics }));
  });

  it('passes the body through byte for byte, with its encoding, length, ETag and Vary', async () => {
    const answer = await sendForBytes(`${url}/api/nft/assets`, { headers: { 'accept-encoding': 'br' } });
    expect(answer.status).toBe(200);
    expect(answer.bytes.equals(encoded)).toBe(true);
    expect(answer.headers).toMatchObject({ 'content-encoding': 'br', 'content-length': String(encoded.length), etag, vary: 'Accept-Encoding' });
    expect(answer.headers['transfer-encoding']).toBeUndefined();
  });

  it('passes HEAD and 304 answers through with their headers and no body', async () => {
    const head = await sendForBytes(`${url}/api/nft/assets`, { method: 'HEAD', headers: { 'accept-encoding': 'br' } });
    expect(head).toMatchObject({ status: 200, bytes: Buffer.alloc(0) });
    expect(head.headers).toMatchObject({ 'content-encoding': 'br', 'content-length': String(encoded.length), etag });
    const unchanged = await sendForBytes(`${url}/api/nft/assets`, { headers: { 'accept-encoding': 'br', 'if-none-match': etag } });
    expect(unchanged).toMatchObject({ status: 304, bytes: Buffer.alloc(0) });
    expect(unchanged.headers).toMatchObject({ etag, vary: 'Accept-Encoding' });
  });

  it('times the service per area', async () => {
    await sendForBytes(`${url}/api/nft/assets`);
    expect(await metrics.registry.metrics()).toMatch(/gateway_upstream_duration_seconds_count\{service="gateway",area="nft-base"\} 1\n/);
  });
});
