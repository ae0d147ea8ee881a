import { createMetrics } from '@ledger-api/observability';
import { refusingUrl, startFakeService, startGateway, type FakeService, type RunningServer } from './testing/gateway-harness';

const servers: RunningServer[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function serviceAnsweringReadyz(name: string, status: number): Promise<FakeService> {
  const service = await startFakeService(name, (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json' }).end('{}');
  });
  servers.push(service);
  return service;
}

async function gateway(env: Record<string, string>, options: Parameters<typeof startGateway>[1] = {}) {
  const started = await startGateway({ READY_TIMEOUT_MS: '300', ...env }, options);
  servers.push(started);
  return started.url;
}

describe('/readyz', () => {
  it('is ready when every configured service is, naming the unconfigured one', async () => {
    const [guardian, nftBase] = await Promise.all([serviceAnsweringReadyz('guardian', 200), serviceAnsweringReadyz('nft-base', 200)]);
    const url = await gateway({ GUARDIAN_URL: guardian.url, NFT_BASE_URL: nftBase.url });
    const response = await fetch(`${url}/readyz`);
    expect(response.status).toBe(200);
    expect(response.headers.get('retry-after')).toBeNull();
    expect(await response.json()).toEqual({
      status: 'ready',
      services: { guardian: 'ready', 'nft-base': 'ready', 'nft-exchange': 'not configured' },
    });
    expect(guardian.received.map(({ url: path }) => path)).toEqual(['/readyz']);
  });

  it('is not ready when one service answers 503', async () => {
    const [guardian, nftExchange] = await Promise.all([serviceAnsweringReadyz('guardian', 200), serviceAnsweringReadyz('nft-exchange', 503)]);
    const url = await gateway({ GUARDIAN_URL: guardian.url, NFT_EXCHANGE_URL: nftExchange.url });
    const response = await fetch(`${url}/readyz`);
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('5');
    expect(await response.json()).toEqual({
      status: 'not ready',
      services: { guardian: 'ready', 'nft-base': 'not configured', 'nft-exchange': 'not ready' },
    });
  });

  it('is not ready when one service is down or hangs, and answers within the ready timeout', async () => {
    const guardian = await serviceAnsweringReadyz('guardian', 200);
    const hanging = await startFakeService('nft-exchange', () => undefined);
    servers.push(hanging);
    const url = await gateway({ GUARDIAN_URL: guardian.url, NFT_BASE_URL: await refusingUrl(), NFT_EXCHANGE_URL: hanging.url });
    const startedAt = performance.now();
    const response = await fetch(`${url}/readyz`);
    expect(performance.now() - startedAt).toBeLessThan(1500);
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({
      status: 'not ready',
      services: { guardian: 'ready', 'nft-base': 'unreachable', 'nft-exchange': 'timed out' },
    });
  });

  it('is never ready without any configured service', async () => {
    const url = await gateway({});
    const response = await fetch(`${url}/readyz`);
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({ status: 'not ready' });
  });
});

describe('/livez and /metrics', () => {
  it('answers /livez without asking any service', async () => {
    const guardian = await serviceAnsweringReadyz('guardian', 503);
    const url = await gateway({ GUARDIAN_URL: guardian.url });
    const response = await fetch(`${url}/livez`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
    expect(guardian.received).toEqual([]);
  });

  it('counts requests by route group and status, and upstream errors', async () => {
    const guardian = await serviceAnsweringReadyz('guardian', 200);
    const url = await gateway({ GUARDIAN_URL: guardian.url, NFT_BASE_URL: await refusingUrl() }, { metrics: createMetrics('gateway', false) });
    await fetch(`${url}/api/guardian/groups/some-group`);
    await fetch(`${url}/api/nft/assets`);
    await fetch(`${url}/nowhere`);
    const response = await fetch(`${url}/metrics`);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await response.text();
    expect(text).toContain('http_request_duration_seconds_count{service="gateway",method="GET",route="guardian",status="200"} 1');
    expect(text).toContain('http_request_duration_seconds_count{service="gateway",method="GET",route="nft-base",status="503"} 1');
    expect(text).toContain('http_request_duration_seconds_count{service="gateway",method="GET",route="unmatched",status="404"} 1');
    expect(text).toContain('gateway_upstream_errors_total{upstream="nft-base",reason="unavailable",service="gateway"} 1');
  });
});
