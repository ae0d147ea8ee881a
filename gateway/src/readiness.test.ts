import { recordEventStream } from '@ledger-api/http-core/testing';
import { createMetrics } from '@ledger-api/observability';
import { waitFor } from '@ledger-api/test-kit';
import { parseGatewayConfig } from './config';
import { gatewayReadiness } from './readiness';
import { refusingUrl, startFakeService, startGateway, type FakeService, type RunningServer } from './testing/gateway-harness';
import type { AreaFeedStatus } from './edge';
import { startFakeArea, type FakeArea } from './testing/fake-area';
import { configuredUpstreams, type ServiceName } from './upstreams';

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

/** The gateway's readiness as its admin port reports it, for the given environment and the states of its areas' feeds (live unless given). */
function readinessOf(env: Record<string, string>, feedStatuses: Partial<Record<ServiceName, AreaFeedStatus>> = {}) {
  const upstreams = configuredUpstreams(parseGatewayConfig(env));
  const feeds = new Map(upstreams.map(({ service }) => [service, { status: () => feedStatuses[service] ?? 'live' }]));
  return gatewayReadiness(upstreams, feeds, 300)();
}

describe('the readiness of the admin port', () => {
  it('is ready when every configured service is on its admin port, naming the unconfigured one', async () => {
    const [guardian, guardianAdmin, nftBaseAdmin] = await Promise.all([
      serviceAnsweringReadyz('guardian', 503),
      serviceAnsweringReadyz('guardian-admin', 200),
      serviceAnsweringReadyz('nft-base-admin', 200),
    ]);
    const readiness = await readinessOf({
      GUARDIAN_URL: guardian.url,
      GUARDIAN_ADMIN_URL: `${guardianAdmin.url}/`,
      NFT_BASE_URL: await refusingUrl(),
      NFT_BASE_ADMIN_URL: nftBaseAdmin.url,
    });
    expect(readiness).toEqual({
      ready: true,
      services: { guardian: 'ready', 'nft-base': 'ready', 'nft-exchange': 'not configured' },
      feeds: { guardian: 'live', 'nft-base': 'live' },
    });
    expect(guardianAdmin.received.map(({ url: path }) => path)).toEqual(['/readyz']);
    expect(guardian.received).toEqual([]);
  });

  it('is not ready when one service answers 503, or has no admin URL to be asked at', async () => {
    const [guardian, nftExchange] = await Promise.all([serviceAnsweringReadyz('guardian', 200), serviceAnsweringReadyz('nft-exchange', 503)]);
    expect(
      await readinessOf({
        GUARDIAN_URL: guardian.url,
        GUARDIAN_ADMIN_URL: guardian.url,
        NFT_EXCHANGE_URL: nftExchange.url,
        NFT_EXCHANGE_ADMIN_URL: nftExchange.url,
      }),
    ).toEqual({
      ready: false,
      services: { guardian: 'ready', 'nft-base': 'not configured', 'nft-exchange': 'not ready' },
      feeds: { guardian: 'live', 'nft-exchange': 'live' },
    });
    expect(await readinessOf({ GUARDIAN_URL: guardian.url })).toEqual({
      ready: false,
      services: { guardian: 'no admin url', 'nft-base': 'not configured', 'nft-exchange': 'not configured' },
      feeds: { guardian: 'live' },
    });
  });

  it('is not ready when one service is down or hangs past the ready timeout', async () => {
    const guardian = await serviceAnsweringReadyz('guardian', 200);
    const hanging = await startFakeService('nft-exchange', () => undefined);
    servers.push(hanging);
    const refusing = await refusingUrl();
    const readiness = await readinessOf({
      GUARDIAN_URL: guardian.url,
      GUARDIAN_ADMIN_URL: guardian.url,
      NFT_BASE_URL: refusing,
      NFT_BASE_ADMIN_URL: refusing,
      NFT_EXCHANGE_URL: hanging.url,
      NFT_EXCHANGE_ADMIN_URL: hanging.url,
    });
    expect(readiness).toMatchObject({ ready: false, services: { guardian: 'ready', 'nft-base': 'unreachable', 'nft-exchange': 'timed out' } });
  });

  it('counts an area ready while any of its replicas is', async () => {
    const [replica, stopping] = [await serviceAnsweringReadyz('nft-base', 200), await serviceAnsweringReadyz('nft-base', 503)];
    const refusing = await refusingUrl();
    const env = { NFT_BASE_URL: `${replica.url},${stopping.url},${refusing}` };
    expect(await readinessOf({ ...env, NFT_BASE_ADMIN_URL: `${refusing},${stopping.url},${replica.url}` })).toMatchObject({ ready: true });
    expect(await readinessOf({ ...env, NFT_BASE_ADMIN_URL: `${refusing},${stopping.url}` })).toMatchObject({
      ready: false,
      services: { 'nft-base': 'unreachable' },
    });
  });

  it('is not ready while the commit feed of any area is not live, however ready its service says it is', async () => {
    const [guardian, nftBase] = await Promise.all([serviceAnsweringReadyz('guardian', 200), serviceAnsweringReadyz('nft-base', 200)]);
    const env = { GUARDIAN_URL: guardian.url, GUARDIAN_ADMIN_URL: guardian.url, NFT_BASE_URL: nftBase.url, NFT_BASE_ADMIN_URL: nftBase.url };
    for (const state of ['connecting', 'lost'] as const) {
      expect(await readinessOf(env, { 'nft-base': state })).toEqual({
        ready: false,
        services: { guardian: 'ready', 'nft-base': 'ready', 'nft-exchange': 'not configured' },
        feeds: { guardian: 'live', 'nft-base': state },
      });
    }
    expect(await readinessOf(env)).toMatchObject({ ready: true });
  });

  it('is never ready without any configured service', async () => {
    expect(await readinessOf({})).toMatchObject({ ready: false });
  });
});

describe("a running gateway's /readyz", () => {
  const areas: FakeArea[] = [];

  afterEach(async () => {
    await Promise.all(areas.splice(0).map((area) => area.close()));
  });

  it('answers 503 until the feed of every area is live, then 200, and its streams are open by then', async () => {
    const [nftBase, nftExchange] = await Promise.all([startFakeArea('/nft'), startFakeArea('/nft/exchange')]);
    areas.push(nftBase, nftExchange);
    // Both services answer ready on their admin ports; only the nft-base feed is refused.
    nftBase.dropFeed();
    const gateway = await startGateway(
      {
        READY_TIMEOUT_MS: '300',
        FEED_RECONNECT_MS: '20',
        NFT_BASE_URL: nftBase.url,
        NFT_BASE_ADMIN_URL: nftBase.url,
        NFT_EXCHANGE_URL: nftExchange.url,
        NFT_EXCHANGE_ADMIN_URL: nftExchange.url,
      },
      { edge: true, admin: true },
    );
    servers.push(gateway);
    const readyz = () => fetch(`${gateway.adminUrl}/readyz`);
    await waitFor(() => gateway.edge?.feeds.get('nft-exchange')?.status() === 'live', 'the nft-exchange feed');

    const refused = await readyz();
    expect(refused.status).toBe(503);
    expect(await refused.json()).toMatchObject({
      ready: false,
      services: { 'nft-base': 'ready', 'nft-exchange': 'ready' },
      feeds: { 'nft-base': 'lost', 'nft-exchange': 'live' },
    });

    nftBase.restoreFeed();
    await waitFor(async () => (await readyz()).status === 200, 'readiness once both feeds are live');
    for (const path of ['/api/nft/events', '/api/nft/exchange/events']) {
      const stream = await recordEventStream(`${gateway.url}${path}`);
      stream.close();
      expect({ path, status: stream.status }).toEqual({ path, status: 200 });
    }
  });
});

describe('the public port', () => {
  it('serves neither readiness nor metrics: anyone could have the gateway probe every service', async () => {
    const guardian = await serviceAnsweringReadyz('guardian', 200);
    const url = await gateway({ GUARDIAN_URL: guardian.url, GUARDIAN_ADMIN_URL: guardian.url });
    for (const path of ['/readyz', '/metrics']) {
      const response = await fetch(`${url}${path}`);
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ statusCode: 404, error: 'Not Found', message: 'Not Found' });
    }
    expect(guardian.received).toEqual([]);
  });

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
    const metrics = createMetrics('gateway', false);
    const url = await gateway({ GUARDIAN_URL: guardian.url, NFT_BASE_URL: await refusingUrl() }, { metrics });
    await fetch(`${url}/api/guardian/groups/some-group`);
    await fetch(`${url}/api/nft/assets`);
    await fetch(`${url}/nowhere`);
    const text = await metrics.registry.metrics();
    expect(text).toContain('http_request_duration_seconds_count{service="gateway",method="GET",route="guardian",status="200"} 1');
    expect(text).toContain('http_request_duration_seconds_count{service="gateway",method="GET",route="nft-base",status="503"} 1');
    expect(text).toContain('http_request_duration_seconds_count{service="gateway",method="GET",route="unmatched",status="404"} 1');
    expect(text).toContain('gateway_upstream_errors_total{upstream="nft-base",reason="unavailable",service="gateway"} 1');
  });
});
