import { loadConfig } from '@ledger-api/config';
import { defineRoute } from '@ledger-api/http';
import {
  PausingStore,
  PushedLedgerSource,
  SENDERS,
  TestLedger,
  applied,
  countedBy,
  freePort,
  reverted,
  testPublicKey,
  writesTo,
} from '@ledger-api/ledger/testing';
import { silentLogger } from '@ledger-api/observability';
import { EmbeddedStore } from '@ledger-api/store';
import { waitFor } from '@ledger-api/test-kit';
import { z } from 'zod';
import { serviceConfigSchema } from './config';
import { startService, type RunningService } from './service';
import { senderCountArea } from './testing/sender-count-area';

const SENDER = testPublicKey('alice');

const area = senderCountArea('metered', () => [
  defineRoute({
    method: 'get',
    path: '/metered/things',
    summary: 'Things',
    tags: ['things'],
    response: z.object({ data: z.array(z.never()) }),
    handler: async () => ({ data: [] }),
  }),
]);

const configOf = (env: Record<string, string> = {}) => ({
  ...loadConfig(serviceConfigSchema({ area: area.area, port: area.defaultPort, adminPort: area.defaultAdminPort }), { HOST: '127.0.0.1', ...env }),
  PORT: 0,
  ADMIN_PORT: 0,
});

/** The samples of one metric family in the text format, by their label set, without the service label. */
async function samples(service: RunningService, name: string): Promise<Record<string, number>> {
  const text = await (await fetch(`http://127.0.0.1:${service.adminPort}/metrics`)).text();
  const found: Record<string, number> = {};
  for (const [, labels = '', value] of text.matchAll(new RegExp(`^${name}(?:\\{([^}]*)\\})? (\\S+)$`, 'gm'))) {
    found[labels.replace(/,?service="metered"/, '')] = Number(value);
  }
  return found;
}

const services: RunningService[] = [];
afterEach(async () => Promise.all(services.splice(0).map((service) => service.close())));

describe('the ledger metrics of a service that runs the projector', () => {
  it('count blocks by outcome, time their application and say the projector state', async () => {
    const source = new PushedLedgerSource();
    const ledger = new TestLedger();
    const blocks = [1, 2, 3].map(() => ledger.block([countedBy(ledger, SENDER)]));
    source.push(...ledger.take(), applied(blocks[2]), reverted(blocks[2]));
    const service = await startService(area, configOf(), silentLogger(), { source });
    services.push(service);
    await waitFor(async () => (await samples(service, 'ledger_blocks_total'))['outcome="reverted"'] === 1, 'the revert of block 3');

    expect(await samples(service, 'ledger_blocks_total')).toEqual({
      'outcome="applied"': 3,
      'outcome="reverted"': 1,
      'outcome="duplicate"': 1,
    });
    expect(await samples(service, 'ledger_block_apply_duration_seconds_count')).toEqual({ '': 3 });
    expect(await samples(service, 'ledger_block_height')).toEqual({ '': 2 });
    await waitFor(() => service.projector?.ready() === true, 'the catch-up');
    expect(await samples(service, 'ledger_projector_state')).toEqual({
      'state="replaying"': 0,
      'state="caught_up"': 1,
      'state="standby"': 0,
      'state="faulted"': 0,
    });
    expect(await samples(service, 'ledger_consumer_pending_events')).toEqual({ '': 0 });
    expect(await samples(service, 'ledger_lag_seconds')).toEqual({ '': 0 });
  });

  it('say how far the consumer trails the stream, in events and in seconds of block time', async () => {
    const store = new PausingStore(new EmbeddedStore());
    const source = new PushedLedgerSource();
    const ledger = new TestLedger();
    const blocks = [1, 2].map(() => ledger.block([countedBy(ledger, SENDER)]));
    source.push(...ledger.take());
    const service = await startService(area, configOf(), silentLogger(), { source, store });
    services.push(service);
    await waitFor(() => service.projector?.ready() === true, 'the catch-up at block 2');

    const pause = store.pauseAfter(writesTo(SENDERS));
    const behind = [3, 4, 5].map(() => ledger.block([countedBy(ledger, SENDER)]));
    source.push(...ledger.take());
    await waitFor(() => pause.held, 'block 3 in hand');
    try {
      expect(await samples(service, 'ledger_consumer_pending_events')).toEqual({ '': 3 });
      const lag = behind[2].timestamp.unix - blocks[1].timestamp.unix;
      expect(await samples(service, 'ledger_lag_seconds')).toEqual({ '': lag });
    } finally {
      pause.release();
    }
    await waitFor(async () => (await samples(service, 'ledger_consumer_pending_events'))[''] === 0, 'the backlog handled');
    expect(await samples(service, 'ledger_lag_seconds')).toEqual({ '': 0 });
  });
});

describe('the page cache metrics of a service', () => {
  it('count the reads that fell back because Redis failed', async () => {
    const source = new PushedLedgerSource();
    const redisUrl = `redis://127.0.0.1:${await freePort()}`;
    const service = await startService(area, configOf({ REDIS_URL: redisUrl }), silentLogger(), { source });
    services.push(service);
    await waitFor(() => service.projector?.ready() === true, 'the catch-up');

    expect((await fetch(`http://127.0.0.1:${service.port}/metered/things`)).status).toBe(200);
    expect((await samples(service, 'page_cache_redis_failures_total'))['operation="get"']).toBeGreaterThanOrEqual(1);
  });
});
