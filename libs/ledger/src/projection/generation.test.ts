import { silentLogger } from '@ledger-api/observability';
import type { Write } from '@ledger-api/store';
import { applied, reverted } from '../testing/ledger-file';
import { MemoryStore } from '../testing/memory-store';
import { TestLedger, testPublicKey } from '../testing/test-ledger';
import { SENDERS, countedBy, senderCountProjection } from '../testing/sender-count-projection';
import { ProjectionRunner } from './runner';
import { readStoredLedgerState, type StoredLedgerState } from './stored-position';

const ALICE = testPublicKey('alice');

interface Step {
  collections: string[];
  /** The runner's own state when the write was issued, and the stored one once it was applied. */
  inMemory: StoredLedgerState | undefined;
  stored: StoredLedgerState;
}

/** A store that records, for every applyWrites call, what readers of the runner and of the store saw. */
class RecordingStore extends MemoryStore {
  readonly steps: Step[] = [];
  runner: ProjectionRunner | undefined;

  override async applyWrites(writes: Write[]): Promise<void> {
    const inMemory = this.runner?.ledgerState;
    await super.applyWrites(writes);
    this.steps.push({ collections: writes.map((write) => write.collection), inMemory, stored: await readStoredLedgerState(this) });
  }
}

async function startRunner(store = new RecordingStore()) {
  const runner = new ProjectionRunner({ store, projection: senderCountProjection, logger: silentLogger() });
  store.runner = runner;
  await runner.init();
  store.steps.length = 0;
  return { store, runner };
}

const marks = (steps: Step[]) => steps.map(({ stored }) => [stored.generation, stored.commitInFlight]);

describe('the cache generation of the position document', () => {
  it('is marked in flight with a commit’s first write and bumped with its last, for applies and reverts', async () => {
    const ledger = new TestLedger();
    const first = ledger.block([countedBy(ledger, ALICE)]);
    const second = ledger.block([countedBy(ledger, ALICE)]);
    const { store, runner } = await startRunner();

    await runner.handle(applied(first), 1);
    await runner.handle(applied(second), 2);
    await runner.handle(reverted(second), 3);

    expect(store.steps.map((step) => step.collections)).toEqual([
      ...[['_ledger', '_undo', '_undo_images', '_commits'], [SENDERS], ['_ledger']],
      ...[['_ledger', '_undo', '_undo_images', '_commits'], [SENDERS], ['_ledger']],
      ...[['_ledger', SENDERS, '_commits'], ['_ledger'], ['_undo_images', '_undo']],
    ]);
    // A revert moves on to generation 3: it never reopens generation 1, the pages of an earlier state.
    expect(marks(store.steps)).toEqual([
      ...[
        [0, true],
        [0, true],
        [1, false],
      ],
      ...[
        [1, true],
        [1, true],
        [2, false],
      ],
      ...[
        [2, true],
        [3, false],
        [3, false],
      ],
    ]);
    expect(runner.ledgerState).toEqual(await readStoredLedgerState(store));
    expect(runner.ledgerState).toMatchObject({ position: { height: 1, blockId: first.id }, generation: 3, commitInFlight: false });
  });

  it('is in flight in the runner from before a commit’s first write until its last one is stored', async () => {
    const ledger = new TestLedger();
    const { store, runner } = await startRunner();
    await runner.handle(applied(ledger.block([countedBy(ledger, ALICE)])), 1);

    expect(store.steps.map((step) => [step.inMemory?.generation, step.inMemory?.commitInFlight])).toEqual([
      [0, true],
      [0, true],
      [0, true],
    ]);
    expect(runner.ledgerState).toMatchObject({ generation: 1, commitInFlight: false });
  });

  it.each([
    ['after the undo record', 1],
    ['after the data writes', 2],
  ])('moves past the interrupted commit’s generation when a crash %s is rolled back', async (_name, callsBeforeCrash) => {
    const ledger = new TestLedger();
    const { store, runner } = await startRunner();
    await runner.handle(applied(ledger.block([countedBy(ledger, ALICE)])), 1);
    store.failAfterCalls = callsBeforeCrash;
    await expect(runner.handle(applied(ledger.block([countedBy(ledger, ALICE)])), 2)).rejects.toThrow('simulated store failure');
    expect(await readStoredLedgerState(store)).toMatchObject({ generation: 1, commitInFlight: true });

    const restarted = await startRunner(store);

    // A reader that saw generation 1 before the crash and reads again now never takes a half block for it.
    expect(await readStoredLedgerState(store)).toMatchObject({ position: { height: 1 }, generation: 2, commitInFlight: false });
    expect(restarted.runner.ledgerState).toEqual(await readStoredLedgerState(store));
  });

  it('reads a position stored without a generation as generation 0 and names its read model once, changing nothing else', async () => {
    const store = new RecordingStore();
    await store.applyWrites([{ collection: '_ledger', id: 'position', doc: { _id: 'position', height: 4, blockId: 'b4', streamSeq: 9 } }]);
    const { runner } = await startRunner(store);
    const named = {
      position: { height: 4, blockId: 'b4', streamSeq: 9 },
      generation: 0,
      changedAt: 0,
      commitInFlight: false,
      readModel: expect.stringMatching(/^[\w]{12}$/),
      fence: 0,
    };
    expect(runner.ledgerState).toEqual(named);
    expect(await readStoredLedgerState(store)).toEqual(runner.ledgerState);

    store.steps.length = 0;
    const again = await startRunner(store);
    expect(store.steps).toEqual([]);
    expect(again.runner.ledgerState).toEqual(runner.ledgerState);
  });

  it('names the data by the last commit that changed it: blocks with no write for the area and their reverts leave it, a revert that changes data takes its own', async () => {
    const ledger = new TestLedger();
    const counted = ledger.block([countedBy(ledger, ALICE)]);
    const empty = ledger.block([]);
    const { store, runner } = await startRunner();
    const dataOf = async () => {
      const { generation, changedAt } = await readStoredLedgerState(store);
      return [generation, changedAt];
    };

    await runner.handle(applied(counted), 1);
    expect(await dataOf()).toEqual([1, 1]);
    await runner.handle(applied(empty), 2);
    expect(await dataOf()).toEqual([2, 1]);
    await runner.handle(reverted(empty), 3);
    expect(await dataOf()).toEqual([3, 1]);
    // The revert of a block that wrote data puts an earlier state back, under a generation never used before.
    await runner.handle(reverted(counted), 4);
    expect(await dataOf()).toEqual([4, 4]);
    expect(runner.ledgerState).toEqual(await readStoredLedgerState(store));

    const records = await store.collection('_commits').find({}, { sort: { generation: 1 } });
    expect(records.map(({ generation, changedAt }) => [generation, changedAt])).toEqual([
      [1, 1],
      [2, 1],
      [3, 1],
      [4, 4],
    ]);
  });
});
