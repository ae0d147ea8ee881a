import { loadConfig } from '@ledger-api/config';
import { defineRoute } from '@ledger-api/http';
import type { LedgerSource } from '@ledger-api/ledger';
import { senderCountProjection, waitFor } from '@ledger-api/ledger/testing';
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

  const area: AreaDefinition = {
    area: 'replay-gate',
    packageName: '@ledger-api/replay-gate',
    version: '1.0.0',
    defaultPort: 4999,
    info: { title: 'Replay gate', version: '1.0.0' },
    projection: () => senderCountProjection,
    routes: () => [
      defineRoute({ method: 'get', path: '/gate/things', summary: 'Things', tags: ['things'], response: z.object({ data: z.array(z.never()) }), handler: async () => ({ data: [] }) }),
    ],
  };

  it('answers API routes 503 with Retry-After until the first catch-up, then serves', async () => {
    const source = new HeldSource();
    const config = { ...loadConfig(serviceConfigSchema({ area: area.area, port: area.defaultPort }), { HOST: '127.0.0.1' }), PORT: 0 };
    const service = await startService(area, config, silentLogger(), { source });
    const base = `http://127.0.0.1:${service.port}`;
    try {
      const held = await fetch(`${base}/gate/things`);
      expect(held.status).toBe(503);
      expect(held.headers.get('retry-after')).toBe('5');
      expect(await held.json()).toEqual({ statusCode: 503, error: 'Service Unavailable', message: 'The ledger is still being replayed, try again shortly' });
      source.caughtUpNow = true;
      await waitFor(async () => (await fetch(`${base}/gate/things`)).status === 200, 'the first catch-up');
      expect((await fetch(`${base}/readyz`)).status).toBe(200);
    } finally {
      await service.close();
    }
  });
});
