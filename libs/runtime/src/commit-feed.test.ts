import { applied, countedBy, reverted, senderCountProjection, TestLedger, testPublicKey } from '@ledger-api/ledger/testing';
import { ProjectionRunner, type CommitRecord } from '@ledger-api/ledger';
import { silentLogger } from '@ledger-api/observability';
import { EmbeddedStore } from '@ledger-api/store';
import { CommitFeed } from './commit-feed';

const ALICE = testPublicKey('alice');
/** No poll in these tests: only the runner's word moves the feed. */
const NEVER_MS = 60 * 60 * 1000;

async function feedOnRunner() {
  const store = new EmbeddedStore();
  const runner = new ProjectionRunner({ store, projection: senderCountProjection, logger: silentLogger() });
  await runner.init();
  const feed = new CommitFeed({ store, runner, pollMs: NEVER_MS, logger: silentLogger() });
  await feed.start();
  return { store, runner, feed };
}

describe('CommitFeed in the process that writes', () => {
  it('stands where the runner stands after every commit, with nobody subscribed and no read of the store', async () => {
    const { store, runner, feed } = await feedOnRunner();
    const ledger = new TestLedger();
    const reads = jest.spyOn(store, 'collection');
    const first = ledger.block([countedBy(ledger, ALICE)]);
    await runner.handle(applied(first), 1);
    expect(feed.current()).toEqual({
      readModel: runner.ledgerState.readModel,
      generation: 1,
      changedAt: 1,
      position: { height: 1, blockId: first.id },
    });
    const second = ledger.block([countedBy(ledger, ALICE)]);
    await runner.handle(applied(second), 2);
    await runner.handle(reverted(second), 3);
    expect(feed.current()).toEqual({
      readModel: runner.ledgerState.readModel,
      generation: 3,
      changedAt: 3,
      position: { height: 1, blockId: first.id },
    });
    expect(reads.mock.calls.filter(([name]) => name === '_ledger' || name === '_commits')).toEqual([]);
    feed.stop();
  });

  it('announces every commit in order once somebody subscribed, from the commit log', async () => {
    const { runner, feed } = await feedOnRunner();
    const ledger = new TestLedger();
    await runner.handle(applied(ledger.block([countedBy(ledger, ALICE)])), 1);
    const announced: CommitRecord[] = [];
    const allAnnounced = new Promise<void>((resolve) =>
      feed.subscribe((change) => {
        if (change.kind === 'commit') announced.push(change.record);
        if (announced.length === 2) resolve();
      }),
    );
    const second = ledger.block([countedBy(ledger, ALICE)]);
    await runner.handle(applied(second), 2);
    await runner.handle(reverted(second), 3);
    await allAnnounced;
    expect(announced.map(({ generation, kind }) => [generation, kind])).toEqual([
      [2, 'block.applied'],
      [3, 'block.reverted'],
    ]);
    expect(feed.current().generation).toBe(3);
    feed.stop();
  });
});
