import { randomBytes } from 'node:crypto';
import { jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import { Kvm } from '@nats-io/kv';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { silentLogger } from '@ledger-api/observability';
import { waitFor } from '@ledger-api/test-kit';
import { NatsKvLease } from '../lease/nats-kv-lease';
import { ProjectionRunner } from '../projection/runner';
import type { LedgerStore } from '../projection/types';
import { UNDO_COLLECTION } from '../projection/undo';
import { Projector } from '../projector';
import { publishEvents } from '../testing/ledger-publisher';
import { createStore } from '@ledger-api/store';
import { MemoryStore } from '../testing/memory-store';
import { PausingStore, writesTo } from '../testing/pausing-store';
import { readModel } from '../testing/read-model';
import { SENDERS, countedBy, senderCountProjection, type SenderDoc } from '../testing/sender-count-projection';
import { TestLedger, testPublicKey } from '../testing/test-ledger';
import type { LedgerEvent, ProjectorState } from '../types';
import { JetStreamLedgerSource } from './jetstream';

const NATS = 'nats://127.0.0.1:4222';
const ALICE = testPublicKey('alice');
const TTL_MS = 1_500;

let connection: NatsConnection;
let jsm: JetStreamManager;
const streams: string[] = [];
const projectors: Projector[] = [];
const probes: NodeJS.Timeout[] = [];

beforeAll(async () => {
  connection = await connect({ servers: NATS });
  jsm = await jetstreamManager(connection);
});

afterEach(async () => {
  probes.splice(0).forEach(clearInterval);
  await Promise.all(projectors.splice(0).map((projector) => projector.stop()));
});

afterAll(async () => {
  for (const stream of streams) await jsm.streams.delete(stream).catch(() => undefined);
  await connection?.close();
});

/** Stream, subjects, consumer and lease bucket no other test run shares. */
function uniqueArea() {
  const run = `${process.pid}_${randomBytes(4).toString('hex')}`;
  const names = { stream: `LEDGER_LEASE_${run}`, subjectPrefix: `test.${run}.ledger.block`, consumerName: `projector_${run}` };
  const bucket = `leases_${run}`;
  streams.push(names.stream, `KV_${bucket}`);
  return { names, bucket, key: `${names.stream}.${names.consumerName}` };
}

type TestArea = ReturnType<typeof uniqueArea>;

function publish(area: TestArea, events: LedgerEvent[]) {
  return publishEvents({ servers: NATS, ...area.names, events, form: 'envelope' });
}

/** A projector that records every state it reports, polled as readiness probes would. */
async function startProjector(options: { store: LedgerStore; names: TestArea['names']; lease?: NatsKvLease; perProcess?: boolean }) {
  const runner = new ProjectionRunner({ store: options.store, projection: senderCountProjection, logger: silentLogger() });
  const appliedHeights: number[] = [];
  runner.onChange((position) => appliedHeights.push(position.height));
  const source = new JetStreamLedgerSource({ servers: NATS, logger: silentLogger(), perProcess: options.perProcess, ...options.names });
  const projector = new Projector({ runner, source, lease: options.lease, logger: silentLogger(), caughtUpPollMs: 25, retryDelayMs: 50 });
  projectors.push(projector);
  const states = new Set<ProjectorState>();
  probes.push(setInterval(() => states.add(projector.status().state), 10));
  await projector.start();
  states.add(projector.status().state);
  return { projector, appliedHeights, states };
}

function lease(area: TestArea, holder: string) {
  return new NatsKvLease({ servers: NATS, key: area.key, bucket: area.bucket, ttlMs: TTL_MS, holder, logger: silentLogger() });
}

async function caughtUpAt(projector: Projector, height: number) {
  await waitFor(() => projector.ready() && projector.status().position.height === height, `the projector to catch up at height ${height}`);
}

async function aliceCount(store: Pick<LedgerStore, 'collection'>) {
  return (await store.collection<SenderDoc>(SENDERS).findById(ALICE))?.count;
}

function blocks(ledger: TestLedger, count: number): LedgerEvent[] {
  for (let i = 0; i < count; i += 1) ledger.block([countedBy(ledger, ALICE)]);
  return ledger.take();
}

describe('projectors sharing a read model under a lease', () => {
  it('stands a second projector by while the first runs, and hands over when the first stops', async () => {
    const area = uniqueArea();
    const ledger = new TestLedger();
    const store = new MemoryStore();
    await publish(area, blocks(ledger, 3));
    const first = await startProjector({ store, names: area.names, lease: lease(area, 'first') });
    await caughtUpAt(first.projector, 3);

    const second = await startProjector({ store, names: area.names, lease: lease(area, 'second') });
    expect(second.projector.status().state).toBe('standby');
    await publish(area, blocks(ledger, 2));
    await caughtUpAt(first.projector, 5);
    // Longer than the lease lives unrenewed: the first keeps it, and its consumer, all along.
    await new Promise((resolve) => setTimeout(resolve, TTL_MS * 1.5));
    expect(second.projector.status().state).toBe('standby');
    expect(second.projector.ready()).toBe(false);
    expect(await jsm.consumers.info(area.names.stream, area.names.consumerName)).toMatchObject({ delivered: { stream_seq: 5 }, num_pending: 0 });

    await first.projector.stop();
    await publish(area, blocks(ledger, 1));
    await caughtUpAt(second.projector, 6);

    expect(first.appliedHeights).toEqual([1, 2, 3, 4, 5]);
    expect(second.appliedHeights).toEqual([6]);
    expect(await aliceCount(store)).toBe(6);
    expect([...first.states, ...second.states]).not.toContain('faulted');
    // The sampler runs every 10 ms: the state reached just now is added by hand.
    second.states.add(second.projector.status().state);
    expect(second.states).toEqual(new Set(['standby', 'catching-up', 'caught-up']));
  });

  it('takes over once the lease of a holder that was killed expires', async () => {
    const area = uniqueArea();
    const store = new MemoryStore();
    await publish(area, blocks(new TestLedger(), 2));
    // What a killed holder leaves behind: its lease, never renewed or released again.
    const kv = await new Kvm(connection).create(area.bucket, { ttl: TTL_MS, history: 1 });
    const leftAt = Date.now();
    await kv.create(area.key, 'killed');

    const next = await startProjector({ store, names: area.names, lease: lease(area, 'next') });
    expect(next.projector.status().state).toBe('standby');
    await caughtUpAt(next.projector, 2);

    expect(Date.now() - leftAt).toBeGreaterThanOrEqual(TTL_MS);
    expect(next.states).not.toContain('faulted');
    expect((await kv.get(area.key))?.string()).toBe('next');
  });

  it('stands by again when another holder took the lease over, and stops consuming', async () => {
    const area = uniqueArea();
    const store = new MemoryStore();
    const ledger = new TestLedger();
    await publish(area, blocks(ledger, 1));
    const holder = await startProjector({ store, names: area.names, lease: lease(area, 'holder') });
    await caughtUpAt(holder.projector, 1);

    // As if the holder's renewals had stopped reaching NATS and someone else took the expired lease.
    const kv = await new Kvm(connection).open(area.bucket);
    await kv.purge(area.key);
    await kv.create(area.key, 'intruder');

    await waitFor(() => holder.projector.status().state === 'standby', 'the projector to stand by');
    expect(holder.projector.ready()).toBe(false);
    await publish(area, blocks(ledger, 1));
    await new Promise((resolve) => setTimeout(resolve, TTL_MS / 2));
    expect(holder.appliedHeights).toEqual([1]);

    await kv.purge(area.key);
    await caughtUpAt(holder.projector, 2);
    expect(holder.states).not.toContain('faulted');
  });
});

describe('a lease holder that stalls mid-block', () => {
  it('writes nothing once its successor claimed the read model, and stands by; the read model is a single writer’s', async () => {
    const area = uniqueArea();
    const ledger = new TestLedger();
    const shared = await createStore({ dbName: 'fenced' });
    const stalling = new PausingStore(shared);
    const published: LedgerEvent[] = [];
    const publishBlock = () => {
      published.push(...blocks(ledger, 1));
      return publish(area, published.slice(-1));
    };
    await publishBlock();
    const first = await startProjector({ store: stalling, names: area.names, lease: lease(area, 'first') });
    await caughtUpAt(first.projector, 1);
    const second = await startProjector({ store: shared, names: area.names, lease: lease(area, 'second') });

    // The first holder stalls after the first writes of block 2, and its lease runs out meanwhile.
    const stall = stalling.pauseAfter(writesTo(UNDO_COLLECTION));
    await publishBlock();
    await waitFor(() => stall.held, 'the first holder to stall mid-block');
    const kv = await new Kvm(connection).open(area.bucket);
    await kv.purge(area.key);
    await caughtUpAt(second.projector, 2);
    await publishBlock();
    await caughtUpAt(second.projector, 3);
    const settled = await readModel(shared, senderCountProjection);

    stall.release();
    await waitFor(() => first.projector.status().state === 'standby', 'the stalled holder to stand by');
    expect(await readModel(shared, senderCountProjection)).toEqual(settled);
    expect(await aliceCount(shared)).toBe(3);
    // What one writer alone makes of the same blocks.
    const alone = new MemoryStore();
    const runner = new ProjectionRunner({ store: alone, projection: senderCountProjection, logger: silentLogger() });
    await runner.init();
    for (const [index, event] of published.entries()) await runner.handle(event, index + 1);
    const [fenced, single] = [settled, await readModel(alone, senderCountProjection)];
    expect(fenced[SENDERS]).toEqual(single[SENDERS]);
    expect(fenced._undo).toEqual(single._undo);
    expect(fenced._ledger[0]).toMatchObject({ height: 3, blockId: single._ledger[0].blockId, fence: expect.any(Number) });
    expect(fenced._ledger[0].fence).toBeGreaterThan(0);
  });
});

describe('projectors with read models of their own', () => {
  it('each read every event through a consumer of their own and end with equal read models', async () => {
    const area = uniqueArea();
    const ledger = new TestLedger();
    await publish(area, blocks(ledger, 3));
    const names = (replica: string) => ({ ...area.names, consumerName: `${area.names.consumerName}_${replica}` });
    const [one, two] = [new MemoryStore(), new MemoryStore()];
    const first = await startProjector({ store: one, names: names('one'), perProcess: true });
    const second = await startProjector({ store: two, names: names('two'), perProcess: true });
    await publish(area, blocks(ledger, 2));

    await caughtUpAt(first.projector, 5);
    await caughtUpAt(second.projector, 5);
    expect(await readModel(one, senderCountProjection)).toEqual(await readModel(two, senderCountProjection));
    expect(await aliceCount(one)).toBe(5);
    expect([...first.states, ...second.states]).not.toContain('faulted');

    // A consumer of one process's own goes with it.
    await first.projector.stop();
    await expect(jsm.consumers.info(area.names.stream, names('one').consumerName)).rejects.toThrow(/consumer not found/);
    expect(await jsm.consumers.info(area.names.stream, names('two').consumerName)).toMatchObject({
      config: { inactive_threshold: expect.any(Number) },
    });
  });
});
