import { loadConfig } from '@ledger-api/config';
import { ProjectionRunner } from '@ledger-api/ledger';
import { PushedLedgerSource, TestLedger, countedBy, senderCountProjection, testPublicKey } from '@ledger-api/ledger/testing';
import { silentLogger } from '@ledger-api/observability';
import { EmbeddedStore } from '@ledger-api/store';
import { waitFor } from '@ledger-api/test-kit';
import { senderCountArea } from './testing/sender-count-area';
import { serviceConfigSchema } from './config';
import { formatStatusTable, hasTrouble, readAreaStatus, type NatsStatusSource } from './ledger-status';
import { ProjectorStateRecorder } from './projector-record';
import { startService } from './service';

const SENDER = testPublicKey('alice');

/** A store a projector has written: two blocks, then the given states. */
async function writtenStore(...states: { state: 'catching-up' | 'caught-up' | 'faulted'; fault?: string }[]) {
  const store = new EmbeddedStore();
  const runner = new ProjectionRunner({ store, projection: senderCountProjection, logger: silentLogger() });
  await runner.init();
  const ledger = new TestLedger();
  for (const [index, event] of [ledger.block([countedBy(ledger, SENDER)]), ledger.block([])].entries()) {
    await runner.handle({ event: 'block.applied', block: event }, index + 1);
  }
  const recorder = new ProjectorStateRecorder(store, silentLogger());
  for (const status of states) recorder.stateChanged({ ...status, position: runner.position });
  await recorder.settled();
  return { store, blockId: runner.position.blockId };
}

const nats = (overrides: Partial<NatsStatusSource> = {}): NatsStatusSource => ({
  consumers: async (area) => [{ name: `${area}-projector`, pending: 3 }],
  leaseHolder: async () => 'host-a-41-0f0f0f',
  ...overrides,
});

describe('the status of an area over a shared store', () => {
  it('gives the stored position and projector state, the consumer backlog and the lease holder', async () => {
    const { store, blockId } = await writtenStore({ state: 'catching-up' }, { state: 'caught-up' });
    const status = await readAreaStatus({ area: 'guardian', storeName: 'mongodb/ledger_guardian', store, nats: nats(), leased: true });

    expect(status).toEqual({
      area: 'guardian',
      store: 'mongodb/ledger_guardian',
      position: { height: 2, blockId, streamSeq: 2, generation: 2, commitInFlight: false },
      projector: { state: 'caught_up', reportedBy: expect.any(String), updatedAt: expect.any(String), caughtUpAt: expect.any(String) },
      consumers: [{ name: 'guardian-projector', pending: 3 }],
      leaseHolder: 'host-a-41-0f0f0f',
      problems: [],
    });
    expect(hasTrouble(status)).toBe(false);
    expect(formatStatusTable([status]).split('\n')).toEqual([
      'AREA      STORE                    HEIGHT  BLOCK          GEN  COMMIT   PENDING  PROJECTOR  LEASE HOLDER',
      `guardian  mongodb/ledger_guardian  2       ${blockId.slice(0, 12)}…  2    settled  3        caught_up  host-a-41-0f0f0f`,
      '',
    ]);
  });

  it('names a fault and every part it could not read', async () => {
    const { store } = await writtenStore({ state: 'catching-up' }, { state: 'faulted', fault: 'block 3 (ab): gap' });
    const unreachable = nats({ consumers: async () => Promise.reject(new Error('timeout')), leaseHolder: async () => null });
    const status = await readAreaStatus({ area: 'nft-base', storeName: 'mongodb/ledger_nft_base', store, nats: unreachable, leased: true });

    expect(status).toMatchObject({
      projector: { state: 'faulted', fault: 'block 3 (ab): gap' },
      leaseHolder: null,
      problems: ['consumers: timeout'],
    });
    expect(hasTrouble(status)).toBe(true);
    const lines = formatStatusTable([status]).split('\n');
    expect(lines[1]).toMatch(/^nft-base .* - +faulted +nobody$/);
    expect(lines.slice(2)).toEqual(['nft-base: fault: block 3 (ab): gap', 'nft-base: cannot read the consumers: timeout', '']);
  });
});

describe('the status of an area on the embedded store', () => {
  const area = senderCountArea('status');

  it('is read from the /readyz of the process that holds the store', async () => {
    const source = new PushedLedgerSource();
    const ledger = new TestLedger();
    const block = ledger.block([countedBy(ledger, SENDER)]);
    source.push(...ledger.take());
    const config = {
      ...loadConfig(serviceConfigSchema({ area: area.area, port: area.defaultPort, adminPort: area.defaultAdminPort }), { HOST: '127.0.0.1' }),
      PORT: 0,
      ADMIN_PORT: 0,
    };
    const service = await startService(area, config, silentLogger(), { source });
    try {
      await waitFor(() => service.projector?.ready() === true, 'the catch-up');
      const processReadiness = async () => (await (await fetch(`http://127.0.0.1:${service.adminPort}/readyz`)).json()) as Record<string, unknown>;
      const status = await readAreaStatus({ area: 'status', storeName: 'embedded', processReadiness, leased: false });

      expect(status).toEqual({
        area: 'status',
        store: 'embedded',
        position: { height: 1, blockId: block.id, generation: 1, commitInFlight: false },
        projector: { state: 'caught_up' },
        problems: [],
      });
      expect(formatStatusTable([status]).split('\n')[1]).toMatch(/^status +embedded +1 .* settled +- +caught_up +-$/);
    } finally {
      await service.close();
    }
  });

  it('says so when the process is not running', async () => {
    const processReadiness = () => Promise.reject(new Error('http://127.0.0.1:1/readyz: connect ECONNREFUSED'));
    const status = await readAreaStatus({ area: 'status', storeName: 'embedded', processReadiness, leased: false });
    expect(status.problems).toEqual(['service: http://127.0.0.1:1/readyz: connect ECONNREFUSED']);
    expect(formatStatusTable([status]).split('\n')[1]).toMatch(/^status +embedded +\? +\? +\? +\? +- +\? +-$/);
  });
});
