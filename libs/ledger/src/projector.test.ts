import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger } from '@ledger-api/observability';
import { ProjectionRunner } from './projection/runner';
import { Projector } from './projector';
import { FileLedgerSource } from './sources/file';
import type { LedgerSource } from './sources/types';
import { TestLedger, testPublicKey } from './test-ledger';
import { reverted, writeLedgerFile } from './testing/ledger-file';
import { MemoryStore } from './testing/memory-store';
import { SENDERS, countedBy, senderCountProjection, type SenderDoc } from './testing/sender-count-projection';
import { waitFor } from './testing/wait';
import { EMPTY_POSITION, type LedgerEvent } from './types';

const ALICE = testPublicKey('alice');

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ledger-projector-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function projectorOver(source: LedgerSource, store = new MemoryStore()) {
  const runner = new ProjectionRunner({ store, projection: senderCountProjection, logger: silentLogger() });
  const projector = new Projector({ runner, source, logger: silentLogger(), caughtUpPollMs: 10, retryDelayMs: 10 });
  return { projector, store };
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

async function aliceCount(store: MemoryStore) {
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
});
