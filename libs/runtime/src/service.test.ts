import { once } from 'node:events';
import { connect } from 'node:net';
import { loadConfig } from '@ledger-api/config';
import { defineRoute } from '@ledger-api/http';
import { recordEventStream } from '@ledger-api/http-core/testing';
import type { LedgerSource } from '@ledger-api/ledger';
import { PushedLedgerSource, senderCountProjection, TestLedger } from '@ledger-api/ledger/testing';
import { expectWithinDeadline, waitFor } from '@ledger-api/test-kit';
import { silentLogger } from '@ledger-api/observability';
import { z } from 'zod';
import type { AreaDefinition } from './area';
import { serviceConfigSchema } from './config';
import { cachePrefix, startService } from './service';

describe('cachePrefix', () => {
  it('separates pages by area, release and network version', () => {
    const area = { area: 'nft-base', version: '1.2.0' } as Parameters<typeof cachePrefix>[0];
    expect(cachePrefix(area, { NETWORK_VERSION: 23 })).toBe('ledger-api:nft-base:1.2.0:23:');
    expect(cachePrefix({ ...area, version: '1.3.0' }, { NETWORK_VERSION: 23 })).not.toBe(cachePrefix(area, { NETWORK_VERSION: 23 }));
    expect(cachePrefix(area, { NETWORK_VERSION: 30 })).not.toBe(cachePrefix(area, { NETWORK_VERSION: 23 }));
  });
});

describe('startService before its projector has caught up', () => {
  /** A ledger source that has delivered nothing yet and reports caught up only when told to. */
  class HeldSource implements LedgerSource {
    private release: (() => void) | undefined;
    private stopped = new Promise<void>((resolve) => (this.release = resolve));
    caughtUpNow = false;
    run = () => this.stopped;
    stop = async () => this.release?.();
    caughtUp = async () => this.caughtUpNow;
  }

  /** A source that delivers what is pushed but reports caught up only when told to: a replay in progress. */
  class ReplayingSource extends PushedLedgerSource {
    caughtUpNow = false;
    override async caughtUp(): Promise<boolean> {
      return this.caughtUpNow && super.caughtUp();
    }
  }

  const area: AreaDefinition = {
    area: 'replay-gate',
    packageName: '@ledger-api/replay-gate',
    version: '1.0.0',
    basePath: '/replay-gate',
    eventsTag: 'Replay gate live events',
    defaultPort: 4999,
    defaultAdminPort: 9999,
    info: { title: 'Replay gate', version: '1.0.0' },
    projection: () => senderCountProjection,
    routes: () => [
      defineRoute({
        method: 'get',
        path: '/gate/things',
        summary: 'Things',
        tags: ['things'],
        response: z.object({ data: z.array(z.never()) }),
        handler: async () => ({ data: [] }),
      }),
      defineRoute({
        method: 'post',
        path: '/gate/things/search',
        summary: 'Search things',
        tags: ['things'],
        body: z.object({}),
        response: z.object({ data: z.array(z.never()) }),
        handler: async () => ({ data: [] }),
      }),
    ],
  };

  const configOf = (env: Record<string, string> = {}) => ({
    ...loadConfig(serviceConfigSchema({ area: area.area, port: area.defaultPort, adminPort: area.defaultAdminPort }), { HOST: '127.0.0.1', ...env }),
    PORT: 0,
    ADMIN_PORT: 0,
  });

  it('answers a request whose body stalls 408 within REQUEST_TIMEOUT_MS', async () => {
    const source = new HeldSource();
    source.caughtUpNow = true;
    const requestTimeoutMs = 300;
    const service = await startService(area, configOf({ REQUEST_TIMEOUT_MS: String(requestTimeoutMs) }), silentLogger(), { source });
    try {
      await waitFor(async () => (await fetch(`http://127.0.0.1:${service.adminPort}/readyz`)).status === 200, 'readiness');
      const socket = connect(service.port, '127.0.0.1');
      socket.write('POST /gate/things/search HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 10\r\n\r\n{');
      let answer = '';
      socket.on('data', (chunk) => (answer += chunk));
      const started = Date.now();
      await once(socket, 'close');
      expectWithinDeadline(Date.now() - started, requestTimeoutMs);
      expect(answer).toMatch(/^HTTP\/1\.1 408 /);
      expect(answer).toContain('{"statusCode":408,"error":"Request Timeout"');
    } finally {
      await service.close();
    }
  });

  it('answers API routes 503 with Retry-After until the first catch-up, then serves', async () => {
    const source = new HeldSource();
    const config = configOf();
    const service = await startService(area, config, silentLogger(), { source });
    const base = `http://127.0.0.1:${service.port}`;
    try {
      const held = await fetch(`${base}/gate/things`);
      expect(held.status).toBe(503);
      expect(held.headers.get('retry-after')).toBe('5');
      expect(await held.json()).toEqual({
        statusCode: 503,
        error: 'Service Unavailable',
        message: 'The ledger is still being replayed, try again shortly',
      });
      // The live stream is refused the way browsers retry: a 200 stream that ends with unavailable.
      const stream = await recordEventStream(`${base}/replay-gate/events`);
      await stream.ended;
      expect([stream.status, stream.headers['retry-after'], stream.retries]).toEqual([200, '5', [5_000]]);
      expect(stream.events).toEqual([
        { event: 'unavailable', data: JSON.stringify({ reason: 'The ledger is still being replayed, try again shortly', retryAfter: 5 }) },
      ]);
      source.caughtUpNow = true;
      await waitFor(async () => (await fetch(`${base}/gate/things`)).status === 200, 'the first catch-up');
      expect((await fetch(`http://127.0.0.1:${service.adminPort}/readyz`)).status).toBe(200);
    } finally {
      await service.close();
    }
  });

  it('names no height in a 503 of the replay, even once blocks are applied, and the height it serves after', async () => {
    const ledger = new TestLedger();
    ledger.block([]);
    ledger.block([]);
    const source = new ReplayingSource();
    source.push(...ledger.take());
    const service = await startService(area, configOf(), silentLogger(), { source });
    const base = `http://127.0.0.1:${service.port}`;
    const readiness = async () => (await (await fetch(`http://127.0.0.1:${service.adminPort}/readyz`)).json()) as { height: number };
    try {
      await waitFor(async () => (await readiness()).height === 2, 'two blocks applied during the replay');
      const refused = await fetch(`${base}/gate/things`);
      expect(refused.status).toBe(503);
      expect(refused.headers.get('x-block-height')).toBeNull();
      // The live stream is refused the way browsers retry: a 200 stream that ends with unavailable.
      const stream = await recordEventStream(`${base}/replay-gate/events`);
      await stream.ended;
      expect([stream.status, stream.headers['retry-after'], stream.retries]).toEqual([200, '5', [5_000]]);
      expect(stream.events).toEqual([
        { event: 'unavailable', data: JSON.stringify({ reason: 'The ledger is still being replayed, try again shortly', retryAfter: 5 }) },
      ]);
      source.caughtUpNow = true;
      await waitFor(async () => (await fetch(`${base}/gate/things`)).status === 200, 'the first catch-up');
      expect((await fetch(`${base}/gate/things`)).headers.get('x-block-height')).toBe('2');
    } finally {
      await service.close();
    }
  });

  it('serves its probes and metrics on the admin port, and none of them on the API port', async () => {
    const source = new HeldSource();
    const service = await startService(area, configOf(), silentLogger(), { source });
    try {
      const admin = `http://127.0.0.1:${service.adminPort}`;
      expect(service.adminPort).not.toBe(service.port);
      expect((await fetch(`${admin}/livez`)).status).toBe(200);
      // Not caught up yet: the projector's readiness says so.
      expect(await (await fetch(`${admin}/readyz`)).json()).toMatchObject({ status: 'not ready', projector: 'catching-up' });
      expect(await (await fetch(`${admin}/metrics`)).text()).toContain('ledger_projector_state{state="replaying",service="replay-gate"} 1');
      source.caughtUpNow = true;
      await waitFor(async () => (await fetch(`${admin}/readyz`)).status === 200, 'the first catch-up');
      for (const path of ['/livez', '/readyz', '/metrics']) {
        expect((await fetch(`http://127.0.0.1:${service.port}${path}`)).status).toBe(404);
      }
    } finally {
      await service.close();
    }
  });
});
