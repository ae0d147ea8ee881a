import { silentLogger } from '@ledger-api/observability';
import { EmbeddedStore } from '@ledger-api/store';
import { LedgerFault } from '../fault';
import { TestLedger, testPublicKey } from '../testing/test-ledger';
import { applied, reverted } from '../testing/ledger-file';
import { MemoryStore } from '../testing/memory-store';
import { SENDERS, countedBy, forgettingSender, senderCountProjection, type SenderDoc } from '../testing/sender-count-projection';
import type { Block, LedgerEvent, LedgerPosition } from '../types';
import { ProjectionRunner } from './runner';
import type { Projection } from './types';
import { UNDO_COLLECTION, undoRecordId, type UndoRecord } from './undo';
import { UNDO_IMAGES_COLLECTION, undoImagesId, type UndoImages } from './undo-images';
import { commitRecordId } from './commit-log';

const ALICE = testPublicKey('alice');
const BOB = testPublicKey('bob');
const CAROL = testPublicKey('carol');
const UNKNOWN_ID = 'f'.repeat(64);

async function startRunner(store = new MemoryStore(), undoRetention?: number) {
  const runner = new ProjectionRunner({ store, projection: senderCountProjection, logger: silentLogger(), undoRetention });
  await runner.init();
  return { store, runner };
}

/** Block 1: Alice twice and Bob once; block 2: Carol once. */
function twoBlocks() {
  const ledger = new TestLedger();
  const first = ledger.block([countedBy(ledger, ALICE), countedBy(ledger, BOB), countedBy(ledger, ALICE)]);
  const second = ledger.block([countedBy(ledger, CAROL)]);
  return { ledger, first, second };
}

async function runnerAtTwoBlocks() {
  const { ledger, first, second } = twoBlocks();
  const { store, runner } = await startRunner();
  await runner.handle(applied(first), 1);
  await runner.handle(applied(second), 2);
  return { ledger, first, second, store, runner };
}

function sender(store: MemoryStore, id: string) {
  return store.collection<SenderDoc>(SENDERS).findById(id);
}

describe('ProjectionRunner', () => {
  it('applies blocks in order, storing data, an undo record and the position', async () => {
    const { first, second } = twoBlocks();
    const { store, runner } = await startRunner();
    const changes: LedgerPosition[] = [];
    runner.onChange((position) => changes.push(position));

    expect(await runner.handle(applied(first), 1)).toBe('applied');
    expect(await runner.handle(applied(second), 2)).toBe('applied');

    expect(await sender(store, ALICE)).toMatchObject({ count: 2, lastHeight: 1 });
    expect(await sender(store, CAROL)).toMatchObject({ count: 1, lastHeight: 2 });
    expect(runner.position).toEqual({ height: 2, blockId: second.id, streamSeq: 2 });
    expect(changes.map((position) => position.height)).toEqual([1, 2]);
    const stored = {
      _id: 'position',
      height: 2,
      blockId: second.id,
      streamSeq: 2,
      generation: 2,
      changedAt: 2,
      commitInFlight: false,
      readModel: expect.any(String),
      fence: 0,
    };
    expect(await store.collection('_ledger').findById('position')).toEqual(stored);
    expect(await store.collection(UNDO_COLLECTION).findById(undoRecordId(2))).toEqual({
      _id: undoRecordId(2),
      height: 2,
      blockId: second.id,
      previous: { height: 1, blockId: first.id },
      collections: [SENDERS],
    });
    expect(await store.collection(UNDO_IMAGES_COLLECTION).findById(undoImagesId(2, SENDERS))).toEqual({
      _id: undoImagesId(2, SENDERS),
      height: 2,
      collection: SENDERS,
      ids: [CAROL],
      steps: [{ collection: SENDERS, id: CAROL, doc: null }],
    });
    expect(store.ensured).toEqual(expect.arrayContaining([SENDERS, '_ledger', UNDO_COLLECTION, UNDO_IMAGES_COLLECTION]));
  });

  it('accepts any first height on an empty store', async () => {
    const { runner } = await startRunner();
    const { second } = twoBlocks();
    expect(await runner.handle(applied({ ...second, height: 500 }), 1)).toBe('applied');
    expect(runner.position.height).toBe(500);
  });

  it('reverts a block to exactly the documents before it, deleting what it created', async () => {
    const { ledger, first } = twoBlocks();
    ledger.revert();
    const { store, runner } = await startRunner();
    await runner.handle(applied(first), 1);
    const beforeBlock = store.snapshot();
    const changing = ledger.block([countedBy(ledger, ALICE), countedBy(ledger, CAROL), forgettingSender(ledger, BOB), countedBy(ledger, CAROL)]);
    await runner.handle(applied(changing), 2);
    expect(await sender(store, BOB)).toBeNull();

    expect(await runner.handle(reverted(changing), 3)).toBe('reverted');

    const afterRevert = store.snapshot();
    expect(afterRevert[SENDERS]).toEqual(beforeBlock[SENDERS]);
    expect(afterRevert[UNDO_COLLECTION]).toEqual(beforeBlock[UNDO_COLLECTION]);
    expect(afterRevert[UNDO_IMAGES_COLLECTION]).toEqual(beforeBlock[UNDO_IMAGES_COLLECTION]);
    expect(runner.position).toEqual({ height: 1, blockId: first.id, streamSeq: 3 });
  });

  it('keeps the same undo steps over the embedded engine as through the Store contract: each document as it was', async () => {
    const { first, second } = twoBlocks();
    const third = { ...second, transactions: [countedBy(new TestLedger(), ALICE)] };
    const undoRecordOf = async (store: EmbeddedStore | MemoryStore) => {
      const runner = new ProjectionRunner({ store, projection: senderCountProjection, logger: silentLogger() });
      await runner.init();
      await runner.handle(applied(first), 1);
      const afterFirst = await store.collection<SenderDoc>(SENDERS).findById(ALICE);
      await runner.handle(applied(third), 2);
      const record = await store.collection<UndoImages>(UNDO_IMAGES_COLLECTION).findById(undoImagesId(2, SENDERS));
      await runner.handle(reverted(third), 3);
      expect(await store.collection<SenderDoc>(SENDERS).findById(ALICE)).toEqual(afterFirst);
      return { record, afterFirst: afterFirst! };
    };
    const { record, afterFirst } = await undoRecordOf(new EmbeddedStore());
    expect(record?.steps).toEqual([{ collection: SENDERS, id: ALICE, doc: afterFirst }]);
    expect((await undoRecordOf(new MemoryStore())).record).toEqual(record);
  });

  describe('with a planted projection that changes a document it read in place', () => {
    // What the type refuses (DeepReadonly), planted past it with a cast, as a projection could at run time.
    const inPlace: Projection = {
      ...senderCountProjection,
      async applyTransaction(ctx, tx) {
        const known = await ctx.get<SenderDoc>(SENDERS, tx.senderPublicKey);
        if (known) (known.transactionIds as string[]).push(tx.id);
        else await senderCountProjection.applyTransaction(ctx, tx, 0);
      },
    };
    const ledger = new TestLedger();
    const first = ledger.block([countedBy(ledger, ALICE)]);
    const third = ledger.block([countedBy(ledger, ALICE)]);

    it('fails the block with its guard on, as everywhere outside production, and leaves the store as it was', async () => {
      const store = new EmbeddedStore();
      const runner = new ProjectionRunner({ store, projection: inPlace, logger: silentLogger() });
      await runner.init();
      await runner.handle(applied(first), 1);
      const afterFirst = await store.collection<SenderDoc>(SENDERS).findById(ALICE);
      await expect(runner.handle(applied(third), 2)).rejects.toThrow(TypeError);
      expect(await store.collection<SenderDoc>(SENDERS).findById(ALICE)).toEqual(afterFirst);
      expect(runner.position.height).toBe(1);
    });

    it('changes the stored document behind the store’s back with its guard off, which is why the guard is on by default', async () => {
      const store = new EmbeddedStore();
      const runner = new ProjectionRunner({ store, projection: inPlace, logger: silentLogger(), guardDocuments: false });
      await runner.init();
      await runner.handle(applied(first), 1);
      await runner.handle(applied(third), 2);
      await runner.handle(reverted(third), 3);
      expect((await store.collection<SenderDoc>(SENDERS).findById(ALICE))?.transactionIds).toEqual([
        first.transactions[0].id,
        third.transactions[0].id,
      ]);
    });
  });

  it('reverts down to an empty read model and then follows another chain', async () => {
    const { first, second } = twoBlocks();
    const { store, runner } = await startRunner();
    await runner.handle(applied(first), 1);
    await runner.handle(reverted(first), 2);
    expect(store.snapshot()[SENDERS]).toEqual({});
    expect(runner.position).toEqual({ height: 0, blockId: '', streamSeq: 2 });

    expect(await runner.handle(applied({ ...second, height: 7 }), 3)).toBe('applied');
  });

  it('treats a redelivered stream sequence as a duplicate without touching the store', async () => {
    const { ledger, first, store, runner } = await runnerAtTwoBlocks();
    const stored = store.snapshot();

    expect(await runner.handle(applied(first), 1)).toBe('duplicate');
    expect(await runner.handle(applied(ledger.block([])), 2)).toBe('duplicate');
    expect(store.snapshot()).toEqual(stored);
  });

  it('treats an already applied block under a new stream sequence as a duplicate, recording the sequence', async () => {
    const { first, second, store, runner } = await runnerAtTwoBlocks();
    const data = store.snapshot()[SENDERS];

    expect(await runner.handle(applied(first), 7)).toBe('duplicate');
    expect(await runner.handle(applied(second), 8)).toBe('duplicate');

    expect(store.snapshot()[SENDERS]).toEqual(data);
    expect(runner.position).toEqual({ height: 2, blockId: second.id, streamSeq: 8 });
    const restarted = await startRunner(store);
    expect(restarted.runner.position.streamSeq).toBe(8);
  });

  type FaultCase = [name: string, event: (chain: { ledger: TestLedger; first: Block; second: Block }) => LedgerEvent, reason: RegExp];
  it.each<FaultCase>([
    [
      'a gap in heights',
      ({ ledger }) => {
        ledger.block([]);
        return applied(ledger.block([]));
      },
      /gap: expected height 3/,
    ],
    ['an unknown previous block', ({ ledger }) => applied({ ...ledger.block([]), previousBlock: UNKNOWN_ID }), /unknown previous block/],
    ['a different block at an applied height', ({ first }) => applied({ ...first, id: UNKNOWN_ID }), /height 1 already holds block/],
    ['a different block at the top height', ({ second }) => applied({ ...second, id: UNKNOWN_ID }), /height 2 already holds block/],
    ['a revert of a block below the top', ({ first }) => reverted(first), /only the last applied block 2/],
    ['a revert of another block at the top height', ({ second }) => reverted({ ...second, id: UNKNOWN_ID }), /only the last applied block 2/],
  ])('raises a LedgerFault for %s and changes nothing', async (_name, makeEvent, reason) => {
    const chain = await runnerAtTwoBlocks();
    const { store, runner } = chain;
    const stored = store.snapshot();
    const position = runner.position;
    const event = makeEvent(chain);

    const failure = runner.handle(event, 3);

    await expect(failure).rejects.toBeInstanceOf(LedgerFault);
    await expect(failure).rejects.toThrow(reason);
    await expect(failure).rejects.toThrow(`block ${event.block.height} (${event.block.id})`);
    expect(store.snapshot()).toEqual(stored);
    expect(runner.position).toEqual(position);
  });

  it('treats a revert above the position as already reverted', async () => {
    const { first, second, store, runner } = await runnerAtTwoBlocks();
    await runner.handle(reverted(second), 3);
    const data = store.snapshot()[SENDERS];

    expect(await runner.handle(reverted(second), 4)).toBe('duplicate');
    expect(store.snapshot()[SENDERS]).toEqual(data);
    expect(runner.position).toEqual({ height: 1, blockId: first.id, streamSeq: 4 });
  });

  it.each([
    ['after the undo record', 1],
    ['after the data writes', 2],
  ])('rolls back a commit interrupted %s when it starts again', async (_name, callsBeforeCrash) => {
    const { ledger, first } = twoBlocks();
    ledger.revert();
    const { store, runner } = await startRunner();
    await runner.handle(applied(first), 1);
    const beforeBlock = store.snapshot();
    const interrupted = ledger.block([countedBy(ledger, ALICE), countedBy(ledger, CAROL)]);

    store.failAfterCalls = callsBeforeCrash;
    await expect(runner.handle(applied(interrupted), 2)).rejects.toThrow('simulated store failure');
    expect(await store.collection(UNDO_COLLECTION).findById(undoRecordId(2))).not.toBeNull();

    const restarted = await startRunner(store);
    // Everything as before the block, under a generation of its own (see the generation tests).
    const rollback = { _id: commitRecordId(2), generation: 2, changedAt: 2, kind: 'rollback', position: { height: 1, blockId: first.id } };
    expect(store.snapshot()).toEqual({
      ...beforeBlock,
      _ledger: { position: { ...beforeBlock._ledger.position, generation: 2, changedAt: 2 } },
      _commits: { ...beforeBlock._commits, [rollback._id]: rollback },
    });
    expect(restarted.runner.position).toEqual({ height: 1, blockId: first.id, streamSeq: 1 });
    expect(await restarted.runner.handle(applied(interrupted), 2)).toBe('applied');
    expect(await sender(store, ALICE)).toMatchObject({ count: 3 });
    expect(await sender(store, CAROL)).toMatchObject({ count: 1 });
  });

  it('rolls back a failed commit before handling the next event in the same process', async () => {
    const { first, second } = twoBlocks();
    const { store, runner } = await startRunner();
    await runner.handle(applied(first), 1);
    store.failAfterCalls = 2;
    await expect(runner.handle(applied(second), 2)).rejects.toThrow('simulated store failure');

    expect(await runner.handle(applied(second), 2)).toBe('applied');
    expect(await sender(store, CAROL)).toMatchObject({ count: 1 });
  });

  it('keeps undo records for the most recent blocks only', async () => {
    const { store, runner } = await startRunner(new MemoryStore(), 2);
    const ledger = new TestLedger();
    const blocks = [1, 2, 3, 4, 5].map(() => ledger.block([countedBy(ledger, ALICE)]));
    for (const [index, each] of blocks.entries()) await runner.handle(applied(each), index + 1);

    expect(Object.keys(store.snapshot()[UNDO_COLLECTION])).toEqual([undoRecordId(4), undoRecordId(5)]);
    // The steps of each kept record go with it.
    expect(Object.keys(store.snapshot()[UNDO_IMAGES_COLLECTION])).toEqual([undoImagesId(4, SENDERS), undoImagesId(5, SENDERS)]);
    expect(await runner.handle(applied(blocks[0]), 6)).toBe('duplicate');
    expect(await runner.handle(reverted(blocks[4]), 7)).toBe('reverted');
    expect(await runner.handle(reverted(blocks[3]), 8)).toBe('reverted');
    await expect(runner.handle(reverted(blocks[2]), 9)).rejects.toThrow(/no undo record is kept/);
    expect(await sender(store, ALICE)).toMatchObject({ count: 3 });
  });

  it('keeps no ids of undo steps without history, and indexes those of the steps it kept once history is back', async () => {
    const store = new MemoryStore();
    const withoutHistory = new ProjectionRunner({ store, projection: senderCountProjection, logger: silentLogger(), indexIds: false });
    await withoutHistory.init();
    const ledger = new TestLedger();
    const blocks = [ALICE, BOB, ALICE].map((key) => ledger.block([countedBy(ledger, key)]));
    for (const [index, each] of blocks.entries()) await withoutHistory.handle(applied(each), index + 1);
    expect(await withoutHistory.handle(reverted(blocks[2]), 4)).toBe('reverted');
    const entries = () => Object.values(store.snapshot()[UNDO_IMAGES_COLLECTION]) as UndoImages[];
    expect(entries().map(({ height, ids }) => ({ height, ids }))).toEqual([1, 2].map((height) => ({ height, ids: undefined })));

    await startRunner(store);
    expect(entries().map(({ height, ids }) => ({ height, ids }))).toEqual([
      { height: 1, ids: [ALICE] },
      { height: 2, ids: [BOB] },
    ]);
  });

  it('keeps the steps of undo records of the earlier form per collection, and reverts through them', async () => {
    const { store, runner } = await startRunner();
    const ledger = new TestLedger();
    const blocks = [ALICE, BOB].map((key) => ledger.block([countedBy(ledger, key)]));
    for (const [index, each] of blocks.entries()) await runner.handle(applied(each), index + 1);
    const earlierForm = (height: number, id: string, doc: SenderDoc | null) => {
      const { collections: _collections, ...record } = store.snapshot()[UNDO_COLLECTION][undoRecordId(height)] as UndoRecord;
      return { ...record, before: [{ collection: SENDERS, id, doc }], ...(height === 1 && { untouched: true }) };
    };
    const touch = (height: number, id: string) => ({ _id: `${undoRecordId(height)}\u0000${SENDERS}\u0000${id}`, height });
    await store.applyWrites([
      ...Object.keys(store.snapshot()[UNDO_IMAGES_COLLECTION]).map((id) => ({ collection: UNDO_IMAGES_COLLECTION, id, doc: null })),
      { collection: UNDO_COLLECTION, id: undoRecordId(1), doc: earlierForm(1, ALICE, null) },
      { collection: UNDO_COLLECTION, id: undoRecordId(2), doc: earlierForm(2, BOB, null) },
      { collection: '_undo_touches', id: touch(2, BOB)._id, doc: touch(2, BOB) },
    ]);
    const migrated = await startRunner(store);

    expect(Object.values(store.snapshot()[UNDO_COLLECTION])).toEqual(
      [1, 2].map((height) => expect.objectContaining({ height, collections: [SENDERS] })),
    );
    expect(Object.values(store.snapshot()[UNDO_COLLECTION]).some((record) => 'before' in record || 'untouched' in record)).toBe(false);
    expect(store.snapshot()['_undo_touches'] ?? {}).toEqual({});
    expect(await migrated.runner.handle(reverted(blocks[1]), 3)).toBe('reverted');
    expect(await sender(store, BOB)).toBeNull();
    expect(await sender(store, ALICE)).toMatchObject({ count: 1 });
  });

  it('refuses events before init', async () => {
    const { first } = twoBlocks();
    const runner = new ProjectionRunner({ store: new MemoryStore(), projection: senderCountProjection, logger: silentLogger() });
    await expect(runner.handle(applied(first), 1)).rejects.toThrow(/init\(\)/);
  });
});

describe('ProjectionRunner and blocks the stream delivered once', () => {
  it('re-applies a reverted block when the next block names it as its parent', async () => {
    const { second, store, runner } = await runnerAtTwoBlocks();
    await runner.handle(reverted(second), 3);
    // The identical re-application of `second` was dropped as a duplicate message; its child arrives.
    const third: Block = { ...second, id: 'c'.repeat(64), height: 3, previousBlock: second.id, transactions: [] };
    expect(await runner.handle(applied(third), 5)).toBe('applied');
    expect(runner.position).toEqual({ height: 3, blockId: third.id, streamSeq: 5 });
    expect(await sender(store, CAROL)).toMatchObject({ count: 1, lastHeight: 2 });
    await runner.handle(reverted(third), 6);
    await runner.handle(reverted(second), 7);
    expect(await sender(store, CAROL)).toBeNull();
  });

  it.each([
    ['a file line', (event: LedgerEvent) => JSON.stringify(event)],
    ['a message payload holding the block alone', (event: LedgerEvent) => JSON.stringify(event.block)],
  ])('re-applies a reverted block from the text its source read it from: %s', async (_form, textOf) => {
    const { first, second } = twoBlocks();
    const { store, runner } = await startRunner();
    await runner.handle(applied(first), 1, textOf(applied(first)));
    // Only the text tells this block apart: the object handed over is not the one the text describes.
    const carolTwice = { ...second, transactions: [...second.transactions, { ...second.transactions[0], id: 'e'.repeat(64) }] };
    await runner.handle(applied(second), 2, textOf(applied(carolTwice)));
    await runner.handle(reverted(second), 3);
    const third: Block = { ...second, id: 'c'.repeat(64), height: 3, previousBlock: second.id, transactions: [] };
    expect(await runner.handle(applied(third), 5)).toBe('applied');
    expect(await sender(store, CAROL)).toMatchObject({ count: 2, lastHeight: 2 });
  });

  it('still faults when the parent was never applied here', async () => {
    const { second, runner } = await runnerAtTwoBlocks();
    const orphan: Block = { ...second, id: 'd'.repeat(64), height: 4, previousBlock: UNKNOWN_ID, transactions: [] };
    await expect(runner.handle(applied(orphan), 3)).rejects.toBeInstanceOf(LedgerFault);
    expect(runner.position.height).toBe(2);
  });
});

/** A store that records which writes land inside a commit, as a transaction would group them. */
class CommitRecordingStore extends MemoryStore {
  readonly commits: string[][] = [];
  readonly writesOutsideCommits: string[] = [];
  private open: string[] | undefined;

  override async commit(work: () => Promise<void>): Promise<void> {
    this.open = [];
    try {
      await work();
      this.commits.push(this.open);
    } finally {
      this.open = undefined;
    }
  }

  override async applyWrites(writes: Parameters<MemoryStore['applyWrites']>[0]): Promise<void> {
    const names = writes.map((write) => `${write.collection}/${write.id}`);
    if (this.open) this.open.push(...names);
    else this.writesOutsideCommits.push(...names);
    await super.applyWrites(writes);
  }
}

describe('ProjectionRunner and store commits', () => {
  it('hands every write of a block, applied or reverted, to the store as one commit', async () => {
    const { ledger, first } = twoBlocks();
    ledger.revert();
    const store = new CommitRecordingStore();
    const { runner } = await startRunner(store);
    await runner.handle(applied(first), 1);
    const changing = ledger.block([countedBy(ledger, CAROL), forgettingSender(ledger, BOB)]);
    await runner.handle(applied(changing), 2);
    await runner.handle(reverted(changing), 3);

    expect(store.writesOutsideCommits).toEqual([]);
    // Naming the new read model, then the three blocks.
    expect(store.commits).toHaveLength(4);
    const [, , apply, revert] = store.commits;
    expect(apply[0]).toBe('_ledger/position');
    expect(apply).toEqual(expect.arrayContaining([`${UNDO_COLLECTION}/${undoRecordId(2)}`, `${SENDERS}/${CAROL}`, `${SENDERS}/${BOB}`]));
    expect(apply[apply.length - 1]).toBe('_ledger/position');
    expect(revert).toEqual(
      expect.arrayContaining(['_ledger/position', `${SENDERS}/${CAROL}`, `${SENDERS}/${BOB}`, `${UNDO_COLLECTION}/${undoRecordId(2)}`]),
    );
  });
});
