import { silentLogger } from '@ledger-api/observability';
import { waitFor } from '@ledger-api/test-kit';
import { LedgerGapFault } from './fault';
import { reportsBacklog, type ProjectionObserver } from './observers';
import { ProjectionRunner } from './projection/runner';
import type { HandleOutcome } from './projection/types';
import { Projector } from './projector';
import { FileLedgerSource } from './sources/file';
import { applied, reverted } from './testing/ledger-file';
import { MemoryStore } from './testing/memory-store';
import { PushedLedgerSource } from './testing/pushed-source';
import { countedBy, senderCountProjection } from './testing/sender-count-projection';
import { TestLedger, testPublicKey } from './testing/test-ledger';
import type { ProjectorStatus } from './types';

const ALICE = testPublicKey('alice');

function recordingObserver() {
  const handled: { height: number; outcome: HandleOutcome; seconds: number }[] = [];
  const observer: ProjectionObserver = {
    eventHandled: (event, outcome, seconds) => handled.push({ height: event.block.height, outcome, seconds }),
  };
  return { observer, handled };
}

describe('a ProjectionRunner with an observer', () => {
  it('reports every handled event with its outcome and duration, and no event that failed', async () => {
    const { observer, handled } = recordingObserver();
    const runner = new ProjectionRunner({ store: new MemoryStore(), projection: senderCountProjection, logger: silentLogger(), observer });
    await runner.init();
    const ledger = new TestLedger();
    const first = ledger.block([countedBy(ledger, ALICE)]);
    const second = ledger.block([countedBy(ledger, ALICE)]);
    await runner.handle(applied(first), 1);
    await runner.handle(applied(second), 2);
    await runner.handle(applied(second), 2);
    await runner.handle(reverted(second), 3);
    const afterGap = { ...second, height: 9 };
    await expect(runner.handle(applied(afterGap), 4)).rejects.toThrow(LedgerGapFault);

    expect(handled.map(({ height, outcome }) => [height, outcome])).toEqual([
      [1, 'applied'],
      [2, 'applied'],
      [2, 'duplicate'],
      [2, 'reverted'],
    ]);
    for (const { seconds } of handled) expect(seconds).toBeGreaterThanOrEqual(0);
  });
});

describe('a Projector with an observer', () => {
  it('reports every state it enters, a fault with its reason', async () => {
    const states: ProjectorStatus[] = [];
    const runner = new ProjectionRunner({ store: new MemoryStore(), projection: senderCountProjection, logger: silentLogger() });
    const source = new PushedLedgerSource();
    const observer = { stateChanged: (status: ProjectorStatus) => states.push(status) };
    const projector = new Projector({ runner, source, logger: silentLogger(), caughtUpPollMs: 5, observer });
    const ledger = new TestLedger();
    source.push(applied(ledger.block([countedBy(ledger, ALICE)])));
    await projector.start();
    await waitFor(() => projector.ready(), 'the projector to catch up');
    const unknownParent = { ...ledger.block([countedBy(ledger, ALICE)]), previousBlock: 'f'.repeat(64) };
    source.push(applied(unknownParent));
    await waitFor(() => projector.status().state === 'faulted', 'the fault');
    await projector.stop();

    expect(states.map(({ state }) => state)).toEqual(['starting', 'catching-up', 'caught-up', 'faulted', 'stopped']);
    expect(states[3].fault).toContain('unknown previous block');
    expect(states[2].position.height).toBe(1);
  });
});

describe('reportsBacklog', () => {
  it('tells sources that report their backlog from those that do not', () => {
    expect(reportsBacklog(new PushedLedgerSource())).toBe(true);
    expect(reportsBacklog(new FileLedgerSource('/nonexistent.jsonl'))).toBe(false);
  });
});
