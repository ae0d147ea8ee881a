import { setTimeout as delay } from 'node:timers/promises';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger } from '@ledger-api/observability';
import { createStore, type Store } from '@ledger-api/store';
import { generateDemoLedger, summarizeLedger } from '@ledger-api/demo-ledger';
import { JetStreamLedgerSource, ProjectionRunner, Projector } from '@ledger-api/ledger';
import { fileReplayReadModel, publishEvents, readModel, senderCountProjection, TestNatsServer, writeLedgerFile } from '@ledger-api/ledger/testing';
import { waitFor } from '@ledger-api/test-kit';

const NAMES = { stream: 'LEDGER', subjectPrefix: 'ledger.block', consumerName: 'restart_test' };
/** How long the crashed broker stays away, as in an operator's restart. */
const OUTAGE_MS = 2_000;
/** Well below the consumer's 30 s ack wait: catching up must not depend on lost deliveries being redelivered. */
const CATCH_UP_TIMEOUT_MS = 20_000;

jest.setTimeout(120_000);

let dir: string;
let server: TestNatsServer | undefined;
let store: Store | undefined;
let projector: Projector | undefined;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ledger-restart-'));
});

afterEach(async () => {
  await projector?.stop();
  await store?.close();
  await server?.dispose();
  projector = store = server = undefined;
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function startProjector(servers: string) {
  store = await createStore({ dbName: 'restart-test' });
  const runner = new ProjectionRunner({ store, projection: senderCountProjection, logger: silentLogger() });
  const source = new JetStreamLedgerSource({ servers, logger: silentLogger(), ...NAMES });
  projector = new Projector({ runner, source, logger: silentLogger(), caughtUpPollMs: 25, retryDelayMs: 50, maxRetryDelayMs: 500 });
  await projector.start();
  return { projector, store };
}

describe('JetStream consumption across a broker crash', () => {
  it('ends caught up with the file replay after NATS is killed mid-publish and restarted on its store', async () => {
    const events = generateDemoLedger({ blockCount: 1000 });
    const file = join(dir, 'ledger.jsonl');
    await writeLedgerFile(file, events);
    const expected = await fileReplayReadModel(file, senderCountProjection);

    server = await TestNatsServer.start();
    const backlog = Math.round(events.length * 0.6);
    await publishEvents({ servers: server.url, ...NAMES, events: events.slice(0, backlog), form: 'envelope' });
    const { projector, store } = await startProjector(server.url);
    await waitFor(() => projector.status().position.height > 100, 'the projector to be consuming the backlog');

    // The kill lands while the rest is being published and the backlog consumed, deliveries in flight.
    let killed: Promise<void> | undefined;
    const publishing = publishEvents({
      servers: server.url,
      ...NAMES,
      events: events.slice(backlog),
      form: 'envelope',
      onStored: (stored) => {
        if (stored === 10) killed = server?.kill();
      },
    });
    await waitFor(() => killed !== undefined, 'the broker to be killed');
    await killed;
    await delay(OUTAGE_MS);
    await server.restart();
    await publishing;

    await waitFor(
      () => projector.status().state === 'faulted' || (projector.ready() && projector.status().position.streamSeq === events.length),
      'the projector to consume every event',
      CATCH_UP_TIMEOUT_MS,
    );
    expect(projector.status()).toEqual({
      state: 'caught-up',
      position: expect.objectContaining({ height: summarizeLedger(events).blocks, streamSeq: events.length }),
    });
    expect(await readModel(store, senderCountProjection)).toEqual(expected);
  });
});
