import { silentLogger } from '@ledger-api/observability';
import { applied, reverted } from '../testing/ledger-file';
import { createStore, type Store } from '@ledger-api/store';
import { countedBy, senderCountProjection } from '../testing/sender-count-projection';
import { TestLedger, testPublicKey } from '../testing/test-ledger';
import { readCommitsBetween } from './commit-log';
import { ProjectionRunner } from './runner';

const ALICE = testPublicKey('alice');

async function startRunner(store: Store, commitLogRetention?: number) {
  const runner = new ProjectionRunner({ store, projection: senderCountProjection, logger: silentLogger(), commitLogRetention });
  await runner.init();
  return runner;
}

describe('the commit log', () => {
  it('records every applied and reverted block under the generation its commit settled, with the projected transactions', async () => {
    const ledger = new TestLedger();
    const store = await createStore({ dbName: 'commit-log' });
    const runner = await startRunner(store);
    const ignored = ledger.transaction({ typeGroup: 1, type: 7, senderPublicKey: ALICE });
    const first = ledger.block([countedBy(ledger, ALICE), ignored]);
    const second = ledger.block([countedBy(ledger, ALICE)]);
    await runner.handle(applied(first), 1);
    await runner.handle(applied(second), 2);
    await runner.handle(reverted(second), 3);

    const records = await readCommitsBetween(store, 0, runner.ledgerState.generation);
    expect(records).toEqual([
      expect.objectContaining({
        generation: 1,
        kind: 'block.applied',
        block: { height: 1, id: first.id },
        position: { height: 1, blockId: first.id },
        timestamp: first.timestamp,
        transactions: [first.transactions[0].id],
      }),
      expect.objectContaining({ generation: 2, kind: 'block.applied', block: { height: 2, id: second.id } }),
      expect.objectContaining({
        generation: 3,
        kind: 'block.reverted',
        block: { height: 2, id: second.id },
        position: { height: 1, blockId: first.id },
      }),
    ]);
    expect(await readCommitsBetween(store, 1, 2)).toEqual([records[1]]);
  });

  it('keeps only the most recent records', async () => {
    const ledger = new TestLedger();
    const store = await createStore({ dbName: 'commit-log' });
    const runner = await startRunner(store, 2);
    for (let seq = 1; seq <= 4; seq += 1) await runner.handle(applied(ledger.block([countedBy(ledger, ALICE)])), seq);

    const kept = await readCommitsBetween(store, 0, 4);
    expect(kept.map((record) => record.generation)).toEqual([3, 4]);
  });
});
