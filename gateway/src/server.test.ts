import type { Server } from 'node:http';
import { createMetrics, silentLogger } from '@ledger-api/observability';
import { buildApp } from './app';
import { parseGatewayConfig } from './config';
import { drainServer } from '@ledger-api/http-core';
import { listen, portOf } from './server';
import { rawGet, startFakeService, timed, type FakeService } from './testing/gateway-harness';
import { expectWithinDeadline, waitFor } from '@ledger-api/test-kit';

let service: FakeService;
let release: () => void = () => undefined;

beforeAll(async () => {
  // Holds every answer until the test releases it, so a request is surely in flight.
  service = await startFakeService('guardian', (_req, res) => {
    release = () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":"finished"}');
  });
});

afterAll(async () => {
  await service.close();
});

async function startGateway(): Promise<{ server: Server; url: string }> {
  const config = parseGatewayConfig({ GUARDIAN_URL: service.url, RATE_LIMIT_PER_MINUTE: '0' });
  const served = buildApp(config, { logger: silentLogger(), metrics: createMetrics('gateway', false) });
  const server = await listen(served, 0, '127.0.0.1');
  return { server, url: `http://127.0.0.1:${portOf(server)}` };
}

const closeGracefully = (server: Server, deadlineMs: number) => drainServer(server, { delayMs: 0, drainMs: 0, deadlineMs });

describe('draining the gateway', () => {
  it('stops accepting, lets the request in flight finish, then resolves', async () => {
    const { server, url } = await startGateway();
    const before = service.received.length;
    const inFlight = fetch(`${url}/api/guardian/groups`);
    await waitFor(() => service.received.length > before);

    const closing = closeGracefully(server, 5000);
    await expect(rawGet(url, '/livez')).rejects.toThrow(/ECONNREFUSED/);
    release();

    const response = await inFlight;
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ data: 'finished' });
    // True only when everything ended before the deadline.
    expect(await closing).toBe(true);
  });

  it('cuts requests still running at the deadline', async () => {
    const { server, url } = await startGateway();
    const before = service.received.length;
    const inFlight = fetch(`${url}/api/guardian/groups`).then(
      () => 'answered',
      () => 'cut',
    );
    await waitFor(() => service.received.length > before);

    const deadlineMs = 200;
    const { result: drained, ms } = await timed(() => closeGracefully(server, deadlineMs));
    expect(drained).toBe(false);
    expectWithinDeadline(ms, deadlineMs);
    expect(await inFlight).toBe('cut');
    release();
  });
});
