import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import { silentLogger } from '@ledger-api/observability';
import { ProjectionRunner } from '../projection/runner';
import { Projector } from '../projector';
import { publishLedgerFile } from '../publish';
import { TestLedger, testPublicKey } from '../testing/test-ledger';
import { applied, reverted, writeLedgerFile } from '../testing/ledger-file';
import { publishEvents } from '../testing/ledger-publisher';
import { MemoryStore } from '../testing/memory-store';
import { fileReplayReadModel, readModel } from '../testing/read-model';
import { SENDERS, countedBy, forgettingSender, senderCountProjection, type SenderDoc } from '../testing/sender-count-projection';
import { waitFor } from '@ledger-api/test-kit';
import type { Block, LedgerEvent, LedgerPosition } from '../types';
import { JetStreamLedgerSource } from './jetstream';

const NATS = 'nats://127.0.0.1:4222';
const ALICE = testPublicKey('alice');
const BOB = testPublicKey('bob');
const CAROL = testPublicKey('carol');

let connection: NatsConnection;
let jsm: JetStreamManager;
let dir: string;
const streams: string[] = [];
const projectors: Projector[] = [];

beforeAll(async () => {
  connection = await connect({ servers: NATS });
  jsm = await jetstreamManager(connection);
  dir = await mkdtemp(join(tmpdir(), 'ledger-jetstream-'));
});

afterEach(async () => {
  await Promise.all(projectors.splice(0).map((projector) => projector.stop()));
});

afterAll(async () => {
  for (const stream of streams) await jsm.streams.delete(stream).catch(() => undefined);
  await connection?.close();
  await rm(dir, { recursive: true, force: true });
});

/** Stream, subjects and consumer names no other test run shares. */
function uniqueLedger() {
  const run = `${process.pid}_${randomBytes(4).toString('hex')}`;
  const stream = `LEDGER_TEST_${run}`;
  streams.push(stream);
  return { stream, subjectPrefix: `test.${run}.ledger.block`, consumerName: `projector_${run}` };
}

type LedgerNames = ReturnType<typeof uniqueLedger>;

async function publish(names: LedgerNames, events: LedgerEvent[]) {
  const file = join(dir, `${names.stream}_${randomBytes(4).toString('hex')}.jsonl`);
  await writeLedgerFile(file, events);
  return publishLedgerFile({ servers: NATS, file, logger: silentLogger(), ...names });
}

async function startProjector(names: LedgerNames, store = new MemoryStore()) {
  const runner = new ProjectionRunner({ store, projection: senderCountProjection, logger: silentLogger() });
  const appliedHeights: number[] = [];
  runner.onChange((position) => appliedHeights.push(position.height));
  const source = new JetStreamLedgerSource({ servers: NATS, logger: silentLogger(), ...names });
  const projector = new Projector({ runner, source, logger: silentLogger(), caughtUpPollMs: 25 });
  projectors.push(projector);
  await projector.start();
  return { projector, store, appliedHeights };
}

async function caughtUpAt(projector: Projector, expected: Partial<LedgerPosition>) {
  const atExpected = () => {
    const { position } = projector.status();
    return Object.entries(expected).every(([field, value]) => position[field as keyof LedgerPosition] === value);
  };
  await waitFor(() => projector.ready() && atExpected(), `the projector to catch up at ${JSON.stringify(expected)}`);
}

async function counts(store: MemoryStore) {
  const senders = await store.collection<SenderDoc>(SENDERS).find({});
  return Object.fromEntries(senders.map((sender) => [sender._id, sender.count]));
}

describe('JetStream ledger consumption', () => {
  it('consumes a published ledger with a revert in the middle until caught up', async () => {
    const names = uniqueLedger();
    const ledger = new TestLedger();
    ledger.block([countedBy(ledger, ALICE), countedBy(ledger, BOB)]);
    ledger.block([countedBy(ledger, CAROL)]);
    ledger.revert();
    ledger.block([countedBy(ledger, ALICE)]);
    const top = ledger.block([countedBy(ledger, BOB)]);

    expect(await publish(names, ledger.take())).toEqual({ stream: names.stream, applied: 4, reverted: 1, duplicates: 0, lastSeq: 5 });
    const { projector, store } = await startProjector(names);
    await caughtUpAt(projector, { height: 3, blockId: top.id, streamSeq: 5 });

    expect(await counts(store)).toEqual({ [ALICE]: 2, [BOB]: 2 });
    expect(await jsm.consumers.info(names.stream, names.consumerName)).toMatchObject({ num_pending: 0, num_ack_pending: 0 });
  });

  it('ends on the ledger state when a block is reverted and the identical block applied again', async () => {
    const names = uniqueLedger();
    const ledger = new TestLedger();
    ledger.block([countedBy(ledger, ALICE)]);
    const second = ledger.block([countedBy(ledger, CAROL)]);
    const events = ledger.take();
    ledger.block([countedBy(ledger, BOB)]);
    const third = ledger.take();
    const replayed = [
      ...events,
      { event: 'block.reverted' as const, block: { id: second.id, height: 2 } },
      { event: 'block.applied' as const, block: second },
    ];

    // JetStream keeps the second `applied` of block 2 out of the stream: its message id was stored already.
    expect(await publish(names, [...replayed, ...third])).toMatchObject({ applied: 4, reverted: 1, duplicates: 1, lastSeq: 4 });
    const { projector, store } = await startProjector(names);
    await caughtUpAt(projector, { height: 3, blockId: (third[0] as { block: Block }).block.id });
    expect(await counts(store)).toEqual({ [ALICE]: 1, [CAROL]: 1, [BOB]: 1 });
  });

  it('resumes from the stored position after a restart without applying anything twice', async () => {
    const names = uniqueLedger();
    const ledger = new TestLedger();
    for (let i = 0; i < 3; i += 1) ledger.block([countedBy(ledger, ALICE)]);
    await publish(names, ledger.take());
    const first = await startProjector(names);
    await caughtUpAt(first.projector, { height: 3 });
    await first.projector.stop();
    expect(first.projector.status().state).toBe('stopped');

    ledger.block([countedBy(ledger, BOB)]);
    ledger.block([countedBy(ledger, ALICE)]);
    await publish(names, ledger.take());
    const second = await startProjector(names, first.store);
    await caughtUpAt(second.projector, { height: 5, streamSeq: 5 });

    expect(second.appliedHeights).toEqual([4, 5]);
    expect(await counts(first.store)).toEqual({ [ALICE]: 4, [BOB]: 1 });
  });

  it('stores a re-published event once', async () => {
    const names = uniqueLedger();
    const ledger = new TestLedger();
    ledger.block([countedBy(ledger, ALICE)]);
    ledger.block([countedBy(ledger, ALICE)]);
    const events = ledger.take();

    await publish(names, events);
    expect(await publish(names, events)).toMatchObject({ applied: 2, duplicates: 2, lastSeq: 2 });
    expect((await jsm.streams.info(names.stream)).state.messages).toBe(2);

    const { projector, store } = await startProjector(names);
    await caughtUpAt(projector, { height: 2, streamSeq: 2 });
    expect(await counts(store)).toEqual({ [ALICE]: 2 });
  });

  it('publishes the lines before an invalid one and names it', async () => {
    const names = uniqueLedger();
    const ledger = new TestLedger();
    ledger.block([]);
    const file = join(dir, `${names.stream}_bad.jsonl`);
    await writeFile(file, `${JSON.stringify(ledger.take()[0])}\n{"event": "block.applied"}\n`);

    const publishing = publishLedgerFile({ servers: NATS, file, logger: silentLogger(), ...names });

    await expect(publishing).rejects.toThrow(`${file} line 2: not a valid ledger event`);
    expect((await jsm.streams.info(names.stream)).state.messages).toBe(1);
  });

  it('faults on a gap the stream itself holds, leaving the block unacknowledged and the projector not ready', async () => {
    const names = uniqueLedger();
    const ledger = new TestLedger();
    const blocks = [1, 2, 3, 4].map(() => ledger.block([countedBy(ledger, ALICE)]));
    await publish(names, [applied(blocks[0]), applied(blocks[1]), applied(blocks[3])]);

    const { projector, store } = await startProjector(names);
    await waitFor(() => projector.status().state === 'faulted', 'the projector to fault');

    expect(projector.ready()).toBe(false);
    expect(projector.status()).toMatchObject({
      position: { height: 2, streamSeq: 2 },
      fault: expect.stringMatching(/^block 4 .*gap: expected height 3/),
    });
    expect(await counts(store)).toEqual({ [ALICE]: 2 });
    // The fault came from the read again after block 2: block 4, at stream sequence 3, was delivered and never acknowledged.
    const consumer = await jsm.consumers.info(names.stream, names.consumerName);
    expect(consumer).toMatchObject({ config: { opt_start_seq: 3 }, delivered: { stream_seq: 3 }, num_ack_pending: 1 });
  });

  it('keeps retrying while NATS cannot be reached, not ready, and stops promptly', async () => {
    const runner = new ProjectionRunner({ store: new MemoryStore(), projection: senderCountProjection, logger: silentLogger() });
    const logger = silentLogger();
    const errors = jest.spyOn(logger, 'error');
    // Port 1 on the loopback interface refuses connections.
    const source = new JetStreamLedgerSource({ servers: 'nats://127.0.0.1:1', logger: silentLogger(), ...uniqueLedger() });
    const projector = new Projector({ runner, source, logger, caughtUpPollMs: 10, retryDelayMs: 10, maxRetryDelayMs: 20 });

    await projector.start();
    await waitFor(() => errors.mock.calls.length >= 3, 'three failed connection attempts');

    expect(projector.status().state).toBe('catching-up');
    expect(projector.ready()).toBe(false);
    await projector.stop();
    expect(projector.status().state).toBe('stopped');
  });

  it('treats a revert of a block it never applied as already reverted', async () => {
    const names = uniqueLedger();
    const ledger = new TestLedger();
    const only = ledger.block([countedBy(ledger, ALICE)]);
    const extra = ledger.block([]);
    await publish(names, [applied(only), reverted(extra)]);

    const { projector } = await startProjector(names);
    await caughtUpAt(projector, { height: 1, streamSeq: 2 });
  });

  it('follows a publisher that sends bare payloads, reverts included, to the state a file replay ends in', async () => {
    const names = uniqueLedger();
    const ledger = new TestLedger();
    ledger.block([countedBy(ledger, ALICE), countedBy(ledger, BOB)]);
    ledger.block([forgettingSender(ledger, ALICE), countedBy(ledger, CAROL)]);
    ledger.revert();
    ledger.block([countedBy(ledger, CAROL)]);
    ledger.block([forgettingSender(ledger, BOB)]);
    ledger.revert();
    ledger.revert();
    const top = ledger.block([countedBy(ledger, ALICE)]);
    const events = ledger.take();
    const file = join(dir, `${names.stream}_bare.jsonl`);
    await writeLedgerFile(file, events);

    await publishEvents({ servers: NATS, ...names, events, form: 'bare' });
    const { projector, store } = await startProjector(names);
    await caughtUpAt(projector, { height: 2, blockId: top.id, streamSeq: events.length });

    expect(await readModel(store, senderCountProjection)).toEqual(await fileReplayReadModel(file, senderCountProjection));
    expect(await counts(store)).toEqual({ [ALICE]: 2, [BOB]: 1 });
  });

  it('faults on a payload that is neither a block nor a file line, naming its stream sequence', async () => {
    const names = uniqueLedger();
    const ledger = new TestLedger();
    ledger.block([countedBy(ledger, ALICE)]);
    await publish(names, ledger.take());
    await connection.publish(`${names.subjectPrefix}.applied`, JSON.stringify({ height: 2 }));
    await connection.flush();

    const { projector, store } = await startProjector(names);
    await waitFor(() => projector.status().state === 'faulted', 'the projector to fault');

    expect(projector.status()).toMatchObject({
      position: { height: 1, streamSeq: 1 },
      fault: `stream ${names.stream} sequence 2: not a valid ledger event (block.id must be a non-empty string)`,
    });
    expect(await counts(store)).toEqual({ [ALICE]: 1 });
  });
});
