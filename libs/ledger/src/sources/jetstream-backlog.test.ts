import { randomBytes } from 'node:crypto';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import { silentLogger } from '@ledger-api/observability';
import { waitFor } from '@ledger-api/test-kit';
import { reverted } from '../testing/ledger-file';
import { publishEvents } from '../testing/ledger-publisher';
import { countedBy } from '../testing/sender-count-projection';
import { TestLedger, testPublicKey } from '../testing/test-ledger';
import { EMPTY_POSITION } from '../types';
import { JetStreamLedgerSource } from './jetstream';
import { newestAppliedBlockTime } from './jetstream-backlog';

const NATS = 'nats://127.0.0.1:4222';

let connection: NatsConnection;
let jsm: JetStreamManager;
const streams: string[] = [];

/** Stream, subjects and consumer no other test run shares. */
function uniqueLedger() {
  const run = `${process.pid}_${randomBytes(4).toString('hex')}`;
  streams.push(`LEDGER_BACKLOG_${run}`);
  return { stream: `LEDGER_BACKLOG_${run}`, subjectPrefix: `test.${run}.ledger.block`, consumerName: `backlog_${run}` };
}

beforeAll(async () => {
  connection = await connect({ servers: NATS });
  jsm = await jetstreamManager(connection);
});

afterAll(async () => {
  for (const stream of streams) await jsm.streams.delete(stream).catch(() => undefined);
  await connection?.close();
});

describe('the backlog of a JetStream ledger source', () => {
  it('counts the events not acknowledged yet and knows the newest applied block, whatever came after it', async () => {
    const names = uniqueLedger();
    const ledger = new TestLedger();
    const blocks = [1, 2, 3].map((n) => ledger.block([countedBy(ledger, testPublicKey(`sender${n}`))]));
    ledger.revert();
    await publishEvents({ servers: NATS, ...names, events: ledger.take(), form: 'bare' });
    const source = new JetStreamLedgerSource({ servers: NATS, logger: silentLogger(), ...names });
    expect(await source.pendingEvents()).toBeUndefined();

    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    let handled = 0;
    const running = source.run(async () => {
      handled += 1;
      if (handled === 1) await held;
    }, EMPTY_POSITION);
    await waitFor(() => handled === 1, 'the first event in hand');

    expect(await source.pendingEvents()).toBe(4);
    expect(await source.newestBlockTime()).toBe(blocks[2].timestamp.unix);
    release();
    await waitFor(async () => (await source.pendingEvents()) === 0, 'every event acknowledged');
    expect(await source.caughtUp()).toBe(true);
    await source.stop();
    await running;
  });

  it('knows no newest block in a stream without applied events', async () => {
    const names = uniqueLedger();
    const ledger = new TestLedger();
    await publishEvents({ servers: NATS, ...names, events: [reverted(ledger.block([]))], form: 'bare' });
    expect(await newestAppliedBlockTime(jsm, names.stream, names.subjectPrefix)).toBeUndefined();
  });
});
