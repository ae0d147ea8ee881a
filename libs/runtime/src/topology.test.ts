import { loadConfig } from '@ledger-api/config';
import { defineRoute } from '@ledger-api/http';
import {
  PausingStore,
  PushedLedgerSource,
  SENDERS,
  TestLedger,
  applied,
  countedBy,
  testPublicKey,
  writesTo,
  type SenderDoc,
} from '@ledger-api/ledger/testing';
import type { HeldLease, ProjectorLease } from '@ledger-api/ledger';
import { silentLogger } from '@ledger-api/observability';
import { EmbeddedStore } from '@ledger-api/store';
import { recordEventStream } from '@ledger-api/http-core/testing';
import { waitFor } from '@ledger-api/test-kit';
import { z } from 'zod';
import { serviceConfigSchema, type Role } from './config';
import { startService, type RunningService } from './service';
import { senderCountArea } from './testing/sender-count-area';

const [ALICE, BOB, CAROL] = ['alice', 'bob', 'carol'].map(testPublicKey);

/** Pages rendered by any replica: a read that does not render was answered from a cache. */
let renders = 0;

/** Every sender with its count: a list page that shows any block's data at once. */
const area = senderCountArea('topology', ({ store }) => [
  defineRoute({
    method: 'get',
    path: '/topology/senders',
    summary: 'Senders',
    tags: ['senders'],
    response: z.object({ data: z.array(z.object({ id: z.string(), count: z.number() })) }),
    handler: async () => {
      renders += 1;
      const senders = await store.collection<SenderDoc>(SENDERS).find({}, { sort: { _id: 1 } });
      return { data: senders.map((sender) => ({ id: sender._id, count: sender.count })) };
    },
  }),
]);

const configOf = (ROLE: Role) => ({
  ...loadConfig(serviceConfigSchema({ area: area.area, port: area.defaultPort, adminPort: area.defaultAdminPort, storeGiven: true }), {
    HOST: '127.0.0.1',
    ROLE,
  }),
  PORT: 0,
  ADMIN_PORT: 0,
});

interface Page {
  height: string | null;
  body: string;
}

async function read(service: RunningService): Promise<Page> {
  const response = await fetch(`http://127.0.0.1:${service.port}/topology/senders`);
  expect(response.status).toBe(200);
  return { height: response.headers.get('x-block-height'), body: await response.text() };
}

/** What a replica reports without reading (or caching) the page under test: every answer carries the height. */
async function heightOf(service: RunningService): Promise<string | null> {
  const response = await fetch(`http://127.0.0.1:${service.port}/topology/unknown`);
  await response.body?.cancel();
  return response.headers.get('x-block-height');
}

/** The deployed topology in one process: one projector and two api replicas over one store. */
async function startTopology() {
  const store = new PausingStore(new EmbeddedStore());
  const source = new PushedLedgerSource();
  const projector = await startService(area, configOf('projector'), silentLogger(), { store, source });
  const replicas = [
    await startService(area, configOf('api'), silentLogger(), { store }),
    await startService(area, configOf('api'), silentLogger(), { store }),
  ];
  const ledger = new TestLedger();
  const publish = () => source.push(...ledger.take());
  const allAt = (height: number) =>
    waitFor(async () => (await Promise.all(replicas.map(heightOf))).every((at) => at === String(height)), `every replica at ${height}`);
  const close = async () => {
    store.releaseAll();
    await Promise.all([projector, ...replicas].map((service) => service.close()));
    await store.close();
  };
  return { store, source, ledger, replicas, publish, allAt, close };
}

let topology: Awaited<ReturnType<typeof startTopology>>;
beforeEach(async () => (topology = await startTopology()));
afterEach(() => topology.close());

/** Blocks 1 and 2, read (and cached) by both replicas: the state-N page. */
async function atBlockTwo(): Promise<Page> {
  const { ledger, replicas, publish, allAt } = topology;
  ledger.block([countedBy(ledger, ALICE)]);
  ledger.block([countedBy(ledger, BOB)]);
  publish();
  await allAt(2);
  const page = await read(replicas[1]);
  expect(JSON.parse(page.body)).toEqual({ data: [ALICE, BOB].map((id) => ({ id, count: 1 })).sort((a, b) => (a.id < b.id ? -1 : 1)) });
  return page;
}

describe('a projector and two api replicas over one store', () => {
  it('never caches a page read between a block’s data writes and its position, so a revert answers the earlier state', async () => {
    const { store, ledger, replicas, publish, allAt } = topology;
    const stateTwo = await atBlockTwo();
    const pause = store.pauseAfter(writesTo(SENDERS));
    ledger.block([countedBy(ledger, CAROL), countedBy(ledger, ALICE)]);
    publish();
    await waitFor(() => pause.held, 'the data writes of block 3');

    // Block 3's data under block 2's height: served, but not cached (the next read renders again).
    const rendered = renders;
    const torn = await read(replicas[0]);
    expect(torn.height).toBe('2');
    expect(torn.body).toContain(CAROL);
    expect(await read(replicas[0])).toEqual(torn);
    expect(renders - rendered).toBe(2);
    // The page cached from the settled block 2 is still served while block 3 is being written.
    expect(await read(replicas[1])).toEqual(stateTwo);
    expect(renders - rendered).toBe(2);

    pause.release();
    await allAt(3);
    expect((await read(replicas[0])).body).toContain(CAROL);
    ledger.revert();
    publish();
    await allAt(2);

    for (const replica of [...replicas, ...replicas]) expect(await read(replica)).toEqual(stateTwo);
  });

  it('never caches a page read between a revert’s data writes and its position, so re-applying the block answers it whole', async () => {
    const { store, source, ledger, replicas, publish, allAt } = topology;
    const stateTwo = await atBlockTwo();
    const third = ledger.block([countedBy(ledger, CAROL)]);
    publish();
    await allAt(3);
    const stateThree = await read(replicas[1]);
    const pause = store.pauseAfter(writesTo(SENDERS));
    ledger.revert();
    publish();
    await waitFor(() => pause.held, 'the data writes of the revert of block 3');

    // Block 2's data under block 3's height: served once, not cached.
    const torn = await read(replicas[0]);
    expect(torn).toEqual({ height: '3', body: stateTwo.body });

    pause.release();
    await allAt(2);
    // The same block 3 again: the position the torn page was read under comes back.
    source.push(applied(third));
    await allAt(3);

    for (const replica of [...replicas, ...replicas]) expect(await read(replica)).toEqual(stateThree);
  });
});

describe('the commit feed of api replicas over the projector’s store', () => {
  it('streams what the projector commits, from either replica, resuming at one what the other sent', async () => {
    const { ledger, replicas, publish } = topology;
    const [first, second] = await Promise.all(replicas.map((replica) => recordEventStream(`http://127.0.0.1:${replica.port}/topology/events`)));
    await waitFor(() => first.events.length === 1 && second.events.length === 1, 'the position at both replicas');
    ledger.block([countedBy(ledger, ALICE)]);
    ledger.block([countedBy(ledger, BOB)]);
    publish();
    await waitFor(() => first.events.length === 3 && second.events.length === 3, 'two blocks at both replicas');
    expect(second.events).toEqual(first.events);
    expect(first.events.slice(1).map((event) => [event.event, JSON.parse(event.data).height])).toEqual([
      ['block.applied', 1],
      ['block.applied', 2],
    ]);

    const resumed = await recordEventStream(`http://127.0.0.1:${replicas[1].port}/topology/events`, { 'last-event-id': first.events[1].id ?? '' });
    await waitFor(() => resumed.events.length === 1, 'the block after the id');
    expect(resumed.events).toEqual([first.events[2]]);
    for (const stream of [first, second, resumed]) stream.close();
  });
});

describe('an api replica without a store of its own', () => {
  it('does not start on an embedded store nothing writes to', async () => {
    await expect(startService(area, configOf('api'), silentLogger())).rejects.toThrow('ROLE=api needs MONGO_URL or a store handed in');
  });
});

/** A lease the test hands to the waiting process; until then another process is taken to hold it. */
class HandedOverLease implements ProjectorLease {
  private handOverNow: () => void = () => undefined;
  private readonly handedOver = new Promise<'held'>((resolve) => (this.handOverNow = () => resolve('held')));

  handOver(): void {
    this.handOverNow();
  }

  async acquire(stop: AbortSignal): Promise<HeldLease | undefined> {
    const stopped = new Promise<'stopped'>((resolve) => stop.addEventListener('abort', () => resolve('stopped'), { once: true }));
    return (await Promise.race([this.handedOver, stopped])) === 'held' ? { lost: new AbortController().signal, token: 1 } : undefined;
  }

  async release(): Promise<void> {}
}

describe('a second projector process over the same store, standing by for the lease', () => {
  it('serves what the lease holder stores, and follows the ledger itself once the lease comes to it', async () => {
    const store = new EmbeddedStore();
    const [holderSource, standbySource] = [new PushedLedgerSource(), new PushedLedgerSource()];
    const holder = await startService(area, configOf('all'), silentLogger(), { store, source: holderSource });
    const lease = new HandedOverLease();
    const standby = await startService(area, configOf('all'), silentLogger(), { store, source: standbySource, lease });
    const running = [holder, standby];
    const ledger = new TestLedger();
    const publish = () => {
      const events = ledger.take();
      for (const source of [holderSource, standbySource]) source.push(...events);
    };
    try {
      ledger.block([countedBy(ledger, ALICE)]);
      ledger.block([countedBy(ledger, BOB)]);
      publish();
      await waitFor(async () => (await heightOf(holder)) === '2', 'the lease holder at block 2');

      expect(standby.projector?.status().state).toBe('standby');
      expect(await read(standby)).toEqual(await read(holder));
      await waitFor(async () => (await fetch(`http://127.0.0.1:${standby.adminPort}/readyz`)).ok, 'the standby ready on the holder’s read model');

      await running.shift()?.close();
      lease.handOver();
      ledger.block([countedBy(ledger, CAROL)]);
      publish();
      await waitFor(async () => (await heightOf(standby)) === '3', 'the new lease holder at block 3');
      await waitFor(() => standby.projector?.status().state === 'caught-up', 'the new lease holder caught up');
      expect((await read(standby)).body).toContain(CAROL);
    } finally {
      await Promise.all(running.map((service) => service.close()));
    }
  });
});
