import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LedgerFault } from '../fault';
import { TestLedger } from '../testing/test-ledger';
import { EMPTY_POSITION, type LedgerEvent } from '../types';
import { FileLedgerSource } from './file';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ledger-file-source-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Three blocks and a revert of the third, with a blank line after the first block. */
async function ledgerFile(name: string) {
  const ledger = new TestLedger();
  ledger.block([]);
  ledger.block([]);
  ledger.block([]);
  ledger.revert();
  const events = ledger.take();
  const lines = events.map((event) => JSON.stringify(event));
  const path = join(dir, name);
  await writeFile(path, [lines[0], '', ...lines.slice(1)].join('\n') + '\n');
  return { path, events };
}

async function replay(source: FileLedgerSource, fromStreamSeq = 0) {
  const handled: Array<[LedgerEvent, number]> = [];
  await source.run(
    async (event, streamSeq) => {
      handled.push([event, streamSeq]);
    },
    { ...EMPTY_POSITION, streamSeq: fromStreamSeq },
  );
  return handled;
}

describe('FileLedgerSource', () => {
  it('replays every event in order, numbered by line, blank lines counted', async () => {
    const { path, events } = await ledgerFile('full.jsonl');
    const source = new FileLedgerSource(path);
    expect(await source.caughtUp()).toBe(false);

    const handled = await replay(source);

    expect(handled).toEqual([
      [events[0], 1],
      [events[1], 3],
      [events[2], 4],
      [events[3], 5],
    ]);
    expect(await source.caughtUp()).toBe(true);
  });

  it('resumes after the line of a stored position', async () => {
    const { path, events } = await ledgerFile('resume.jsonl');
    const handled = await replay(new FileLedgerSource(path), 3);
    expect(handled).toEqual([
      [events[2], 4],
      [events[3], 5],
    ]);
  });

  it('stops after the event in hand', async () => {
    const { path } = await ledgerFile('stop.jsonl');
    const source = new FileLedgerSource(path);
    const seen: number[] = [];
    let stopped: Promise<void> | undefined;
    await source.run(async (_event, streamSeq) => {
      seen.push(streamSeq);
      // stop() waits for this very event to finish, so it cannot be awaited here.
      if (seen.length === 2) stopped = source.stop();
    }, EMPTY_POSITION);
    await stopped;
    expect(seen).toEqual([1, 3]);
    expect(await source.caughtUp()).toBe(false);
  });

  it.each([
    ['not valid JSON', '{"event": "block.applied", ', /line 3: not valid JSON/],
    ['not a ledger event', '{"event": "block.created", "block": {"id": "x", "height": 3}}', /line 3: not a valid ledger event \(event must be/],
    [
      'an applied block without transactions',
      '{"event": "block.applied", "block": {"id": "x", "height": 3, "previousBlock": "", "timestamp": {"epoch": 1, "unix": 1, "human": ""}}}',
      /line 3: .*transactions/,
    ],
  ])('faults on a line that is %s, naming the line, after handling the lines before it', async (_name, badLine, reason) => {
    const ledger = new TestLedger();
    ledger.block([]);
    ledger.block([]);
    const path = join(dir, 'bad.jsonl');
    await writeFile(path, [...ledger.take().map((event) => JSON.stringify(event)), badLine].join('\n'));
    const handled: number[] = [];

    const run = new FileLedgerSource(path).run(async (_event, streamSeq) => {
      handled.push(streamSeq);
    }, EMPTY_POSITION);

    await expect(run).rejects.toBeInstanceOf(LedgerFault);
    await expect(run).rejects.toThrow(reason);
    expect(handled).toEqual([1, 2]);
  });

  it('faults when the file cannot be read', async () => {
    const run = new FileLedgerSource(join(dir, 'missing.jsonl')).run(async () => undefined, EMPTY_POSITION);
    await expect(run).rejects.toThrow(/cannot read ledger file .*missing\.jsonl: ENOENT/);
    await expect(run).rejects.toBeInstanceOf(LedgerFault);
  });
});
