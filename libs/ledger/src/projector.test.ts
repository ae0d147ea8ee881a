import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger } from '@ledger-api/observability';
import { EmbeddedStore } from '@ledger-api/store';
import { DeliveryInterrupted, LedgerFault } from './fault';
import { ProjectionRunner } from './projection/runner';
import type { LedgerStore, Projection } from './projection/types';
import { Projector } from './projector';
import { FileLedgerSource } from './sources/file';
import type { LedgerEventHandler, LedgerSource } from './sources/types';
import { TestLedger, testPublicKey } from './testing/test-ledger';
import { reverted, writeLedgerFile } from './testing/ledger-file';
import { MemoryStore } from './testing/memory-store';
import { readModel } from './testing/read-model';
import { SENDERS, countedBy, senderCountProjection, type SenderDoc } from './testing/sender-count-projection';
import { waitFor } from '@ledger-api/test-kit';
import { EMPTY_POSITION, type LedgerEvent, type LedgerPosition } from './types';

const ALICE = testPublicKey('alice');

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ledger-projector-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function projectorOver(
  source: LedgerSource,
  store: LedgerStore = new MemoryStore(),
  projection: Projection = senderCountProjection,
  retryDelayMs = 10,
) {
  const runner = new ProjectionRunner({ store, projection, logger: silentLogger() });
  const projector = new Projector({ runner, source, logger: silentLogger(), caughtUpPollMs: 10, retryDelayMs });
  return { projector, store };
}

/** What one read of a ScriptedSource does wrong: sequences it never delivers, or where the connection drops. */
interface ReadScript {
  lost?: number[];
  interruptedAfter?: number;
}

/**
 * Delivers events from a list, the stream sequence of each being its 1-based
 * index, as a broker does that loses deliveries: the n-th read follows
 * `scripts[n]`, later reads deliver everything.
 */
class ScriptedSource implements LedgerSource {
  /** The stream sequence each read started after. */
  readonly readsFrom: number[] = [];
  private finished = false;

  constructor(
    private readonly events: LedgerEvent[],
    private readonly scripts: ReadScript[] = [],
  ) {}

  async run(handler: LedgerEventHandler, from: LedgerPosition): Promise<void> {
    const { lost = [], interruptedAfter } = this.scripts[this.readsFrom.length] ?? {};
    this.readsFrom.push(from.streamSeq);
    for (const [index, event] of this.events.entries()) {
      const streamSeq = index + 1;
      if (streamSeq > from.streamSeq && !lost.includes(streamSeq)) await handler(event, streamSeq);
      if (streamSeq === interruptedAfter) throw new DeliveryInterrupted('connection re-established');
    }
    this.finished = true;
  }

  async stop(): Promise<void> {}

  async caughtUp(): Promise<boolean> {
    return this.finished;
  }
}

/** Alice's blocks, each with one transaction the test projection counts. */
function aliceLedger(blocks: number): LedgerEvent[] {
  const ledger = new TestLedger();
  for (let i = 0; i < blocks; i += 1) ledger.block([countedBy(ledger, ALICE)]);
  return ledger.take();
}

/** A ledger file of `blocks` blocks holding one transaction of Alice each; `edit` may change the events first. */
async function ledgerFile(name: string, blocks: number, edit: (events: LedgerEvent[], ledger: TestLedger) => void = () => undefined) {
  const ledger = new TestLedger();
  for (let i = 0; i < blocks; i += 1) ledger.block([countedBy(ledger, ALICE)]);
  const events = ledger.take();
  edit(events, ledger);
  const path = join(dir, name);
  await writeLedgerFile(path, events);
  return { path, ledger };
}

async function aliceCount(store: LedgerStore) {
  return (await store.collection<SenderDoc>(SENDERS).findById(ALICE))?.count;
}

describe('Projector', () => {
  it('replays a ledger file until caught up, then reports ready', async () => {
    const { path, ledger } = await ledgerFile('replay.jsonl', 4, (events, chain) => events.push(reverted(chain.revert())));
    const { projector, store } = projectorOver(new FileLedgerSource(path));
    expect(projector.status()).toEqual({ state: 'starting', position: EMPTY_POSITION });
    expect(projector.ready()).toBe(false);

    await projector.start();
    await waitFor(() => projector.ready(), 'the projector to catch up');

    expect(projector.status()).toEqual({ state: 'caught-up', position: { height: 3, blockId: expect.any(String), streamSeq: 5 } });
    expect(projector.status().position.height).toBe(ledger.height);
    expect(await aliceCount(store)).toBe(3);
    await projector.stop();
    expect(projector.status().state).toBe('stopped');
  });

  it('lets an embedded engine leave its order while catching up, and has it restored before reporting ready', async () => {
    const { path } = await ledgerFile('deferred.jsonl', 3);
    const calls: string[] = [];
    const store = new EmbeddedStore();
    const [deferOrder, restoreOrder] = [store.deferOrder.bind(store), store.restoreOrder.bind(store)];
    jest.spyOn(store, 'deferOrder').mockImplementation(() => {
      calls.push('defer');
      deferOrder();
    });
    jest.spyOn(store, 'restoreOrder').mockImplementation(() => {
      calls.push(`restore while ${projector.status().state}`);
      restoreOrder();
    });
    const { projector } = projectorOver(new FileLedgerSource(path), store);

    await projector.start();
    await waitFor(() => projector.ready(), 'the projector to catch up');

    expect(calls).toEqual(['defer', 'restore while catching-up']);
    await projector.stop();
  });

  it('stops at a fault, applies nothing past it and reports not ready', async () => {
    const { path } = await ledgerFile('gap.jsonl', 4, (events) => events.splice(2, 1));
    const { projector, store } = projectorOver(new FileLedgerSource(path));

    await projector.start();
    await waitFor(() => projector.status().state === 'faulted', 'the projector to fault');

    expect(projector.ready()).toBe(false);
    expect(projector.status().fault).toMatch(/^block 4 \(\w+\): gap: expected height 3/);
    expect(projector.status().position.height).toBe(2);
    expect(await aliceCount(store)).toBe(2);
    await projector.stop();
  });

  it('retries after a store failure and applies every block once', async () => {
    const { path } = await ledgerFile('retry.jsonl', 3);
    const store = new MemoryStore();
    store.failAfterCalls = 3;
    const { projector } = projectorOver(new FileLedgerSource(path), store);

    await projector.start();
    await waitFor(() => projector.ready(), 'the projector to catch up after the failure');

    expect(projector.status().position.height).toBe(3);
    expect(await aliceCount(store)).toBe(3);
    await projector.stop();
  });

  it('resumes a file from the stored position on restart', async () => {
    const { path } = await ledgerFile('restart.jsonl', 3);
    const first = projectorOver(new FileLedgerSource(path));
    await first.projector.start();
    await waitFor(() => first.projector.ready(), 'the first run to catch up');
    await first.projector.stop();

    const second = projectorOver(new FileLedgerSource(path), first.store);
    await second.projector.start();
    await waitFor(() => second.projector.ready(), 'the second run to catch up');
    expect(await aliceCount(first.store)).toBe(3);
    await second.projector.stop();
  });

  it('reads again from the stored position after a gap in what was delivered, ending as a plain replay does', async () => {
    const events = aliceLedger(5);
    const source = new ScriptedSource(events, [{ lost: [3] }]);
    const { projector, store } = projectorOver(source);

    await projector.start();
    await waitFor(() => projector.ready() || projector.status().state === 'faulted', 'the projector to catch up');

    expect(projector.status()).toMatchObject({ state: 'caught-up', position: { height: 5, streamSeq: 5 } });
    expect(source.readsFrom).toEqual([0, 2]);
    const replay = projectorOver(new ScriptedSource(events));
    await replay.projector.start();
    await waitFor(() => replay.projector.ready(), 'the plain replay to catch up');
    expect(await readModel(store, senderCountProjection)).toEqual(await readModel(replay.store, senderCountProjection));
    await Promise.all([projector.stop(), replay.projector.stop()]);
  });

  it('reads again after each gap that follows progress', async () => {
    const source = new ScriptedSource(aliceLedger(6), [{ lost: [3] }, { lost: [5] }]);
    const { projector, store } = projectorOver(source);

    await projector.start();
    await waitFor(() => projector.ready() || projector.status().state === 'faulted', 'the projector to catch up');

    expect(projector.status().state).toBe('caught-up');
    expect(source.readsFrom).toEqual([0, 2, 4]);
    expect(await aliceCount(store)).toBe(6);
    await projector.stop();
  });

  it('faults when reading again from the stored position meets the same gap', async () => {
    const source = new ScriptedSource(aliceLedger(5), [{ lost: [3] }, { lost: [3] }]);
    const { projector, store } = projectorOver(source);

    await projector.start();
    await waitFor(() => projector.status().state === 'faulted', 'the projector to fault');

    expect(source.readsFrom).toEqual([0, 2]);
    expect(projector.status()).toMatchObject({
      position: { height: 2, streamSeq: 2 },
      fault: expect.stringMatching(/^block 4 \(\w+\): gap: expected height 3/),
    });
    expect(await aliceCount(store)).toBe(2);
    await projector.stop();
  });

  it('reads again at once after an interrupted delivery, without waiting to retry', async () => {
    const source = new ScriptedSource(aliceLedger(4), [{ interruptedAfter: 2 }]);
    const { projector, store } = projectorOver(source, new MemoryStore(), senderCountProjection, 60_000);

    await projector.start();
    await waitFor(() => projector.ready(), 'the projector to catch up', 5_000);

    expect(source.readsFrom).toEqual([0, 2]);
    expect(await aliceCount(store)).toBe(4);
    await projector.stop();
  });

  it('stops at once at a fault that is not about the order of events', async () => {
    const rejectingThirdBlock: Projection = {
      ...senderCountProjection,
      async applyTransaction(ctx, tx, sequence) {
        if (ctx.block.height === 3) throw new LedgerFault('malformed payload', ctx.block);
        await senderCountProjection.applyTransaction(ctx, tx, sequence);
      },
    };
    const source = new ScriptedSource(aliceLedger(4));
    const { projector } = projectorOver(source, new MemoryStore(), rejectingThirdBlock);

    await projector.start();
    await waitFor(() => projector.status().state === 'faulted', 'the projector to fault');

    expect(source.readsFrom).toEqual([0]);
    expect(projector.status()).toMatchObject({ position: { height: 2 }, fault: expect.stringMatching(/malformed payload$/) });
    await projector.stop();
  });
});
