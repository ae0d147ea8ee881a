import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { setFlagsFromString } from 'node:v8';
import express from 'express';
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

describe('the requests and responses the gateway serves', () => {
  it("have Express's prototypes from the start and keep V8's fast properties", async () => {
    // V8's own check, compiled after the flag is set: an object that outgrew its room is kept as a dictionary.
    setFlagsFromString('--allow-natives-syntax');
    const hasFastProperties = new Function('object', 'return %HasFastProperties(object)') as (object: object) => boolean;
    const app = express();
    const seen: Array<Record<string, boolean>> = [];
    const handle = (req: IncomingMessage, res: ServerResponse) => {
      seen.push({
        requestPrototype: Object.getPrototypeOf(req) === app.request,
        responsePrototype: Object.getPrototypeOf(res) === app.response,
        requestFast: hasFastProperties(req),
        responseFast: hasFastProperties(res),
      });
      res.end();
    };
    const server = await listen({ app, handle }, 0, '127.0.0.1');
    try {
      // Enough for V8's slack tracking to settle the objects' size.
      for (let sent = 0; sent < 20; sent += 1) await fetch(`http://127.0.0.1:${portOf(server)}/`).then((answer) => answer.arrayBuffer());
    } finally {
      server.close();
    }
    expect(seen).toHaveLength(20);
    for (const flags of seen) expect(flags).toEqual({ requestPrototype: true, responsePrototype: true, requestFast: true, responseFast: true });
  });
});
