import { loadConfig } from '@ledger-api/config';
import {
  PausingStore,
  PushedLedgerSource,
  SENDERS,
  TestLedger,
  countedBy,
  testPublicKey,
  writesTo,
  type WritePause,
} from '@ledger-api/ledger/testing';
import { silentLogger } from '@ledger-api/observability';
import { EmbeddedStore } from '@ledger-api/store';
import { waitFor } from '@ledger-api/test-kit';
import { serviceConfigSchema, type Role } from './config';
import { startService, type RunningService } from './service';
import { senderCountArea } from './testing/sender-count-area';

const SENDER = testPublicKey('alice');

const area = senderCountArea('readiness');

const configOf = (ROLE: Role, env: Record<string, string> = {}) => ({
  ...loadConfig(serviceConfigSchema({ area: area.area, port: area.defaultPort, adminPort: area.defaultAdminPort, storeGiven: true }), {
    HOST: '127.0.0.1',
    ROLE,
    ...env,
  }),
  PORT: 0,
  ADMIN_PORT: 0,
});

async function readiness(service: RunningService): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`http://127.0.0.1:${service.adminPort}/readyz`);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const isReady = async (service: RunningService) => (await readiness(service)).status === 200;

let store: PausingStore;
let ledger: TestLedger;
const services: RunningService[] = [];

beforeEach(() => {
  store = new PausingStore(new EmbeddedStore());
  ledger = new TestLedger();
});

afterEach(async () => {
  store.releaseAll();
  await Promise.all(services.splice(0).map((service) => service.close()));
});

async function start(role: Role, source?: PushedLedgerSource, env: Record<string, string> = {}): Promise<RunningService> {
  const service = await startService(area, configOf(role, env), silentLogger(), { store, source });
  services.push(service);
  return service;
}

/** Makes the projector stop in the data writes of the next block, and queues these blocks for it. */
function holdNextBlock(source: PushedLedgerSource, blocks: number) {
  const pause = store.pauseAfter(writesTo(SENDERS));
  for (let i = 0; i < blocks; i += 1) ledger.block([countedBy(ledger, SENDER)]);
  source.push(...ledger.take());
  return pause;
}

const held = (pause: WritePause) => waitFor(() => pause.held, 'the projector held in a block');

describe('a projector’s readiness', () => {
  it('turns 503 while its consumer holds more events than READY_MAX_LAG_EVENTS, and 200 once back within', async () => {
    const source = new PushedLedgerSource();
    ledger.block([countedBy(ledger, SENDER)]);
    source.push(...ledger.take());
    const projector = await start('projector', source, { READY_MAX_LAG_EVENTS: '2' });
    await waitFor(() => isReady(projector), 'the first catch-up');

    const pause = holdNextBlock(source, 2);
    await held(pause);
    expect(await readiness(projector)).toMatchObject({ status: 200, body: { projector: 'caught-up', pending: 2 } });
    ledger.block([countedBy(ledger, SENDER)]);
    source.push(...ledger.take());
    expect(await readiness(projector)).toEqual({
      status: 503,
      body: expect.objectContaining({
        status: 'not ready',
        projector: 'caught-up',
        height: 1,
        pending: 3,
        reason: '3 ledger events behind, more than READY_MAX_LAG_EVENTS (2)',
      }),
    });

    pause.release();
    await waitFor(() => isReady(projector), 'the backlog handled');
    expect((await readiness(projector)).body).toMatchObject({ height: 4, pending: 0 });
  });
});

describe('an api replica’s readiness', () => {
  it('waits for a projector to have replayed its store from empty, then stays ready when that projector falls behind', async () => {
    const replica = await start('api');
    expect(await readiness(replica)).toMatchObject({ status: 503, body: { reason: 'no projector has written this read model yet' } });

    const source = new PushedLedgerSource();
    const replay = holdNextBlock(source, 3);
    await start('projector', source);
    await held(replay);
    await waitFor(async () => (await readiness(replica)).body.projector === 'replaying', 'the replay reported');
    expect(await readiness(replica)).toMatchObject({
      status: 503,
      body: { height: 0, reason: 'the read model is being replayed from empty; ready once its projector has caught up' },
    });

    replay.release();
    await waitFor(() => isReady(replica), 'the replica ready after the catch-up');
    expect((await readiness(replica)).body).toMatchObject({ projector: 'caught_up', height: 3 });

    const behind = holdNextBlock(source, 1);
    await held(behind);
    expect(await readiness(replica)).toMatchObject({ status: 200, body: { height: 3 } });
    behind.release();
  });

  it('stays ready while a restarted projector resumes the store it replayed before', async () => {
    const replica = await start('api');
    const first = new PushedLedgerSource();
    ledger.block([countedBy(ledger, SENDER)]);
    const events = ledger.take();
    first.push(...events);
    const projector = await start('projector', first);
    await waitFor(() => isReady(replica), 'the first replay');
    await projector.close();
    services.splice(services.indexOf(projector), 1);

    const again = new PushedLedgerSource();
    again.push(...events);
    const resumed = holdNextBlock(again, 1);
    await start('projector', again);
    await held(resumed);
    await waitFor(async () => (await readiness(replica)).body.projector === 'replaying', 'the resumed projector reported');
    expect(await readiness(replica)).toMatchObject({ status: 200, body: { height: 1 } });
    resumed.release();
  });
});
