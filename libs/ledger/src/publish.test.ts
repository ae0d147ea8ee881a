import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger } from '@ledger-api/observability';
import { publishLedgerFile } from './publish';
import { TestLedger } from './testing/test-ledger';
import { writeLedgerFile } from './testing/ledger-file';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ledger-publish-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

// Publishing to a live stream is covered with its consumer in sources/jetstream.test.ts.
describe('publishLedgerFile', () => {
  it('names a ledger file that cannot be read', async () => {
    const file = join(dir, 'missing.jsonl');
    await expect(publishLedgerFile({ servers: 'nats://127.0.0.1:4222', file, logger: silentLogger() })).rejects.toThrow(
      `cannot read ledger file ${file}: ENOENT`,
    );
  });

  it('names the NATS server it cannot reach', async () => {
    const file = join(dir, 'ledger.jsonl');
    const ledger = new TestLedger();
    ledger.block([]);
    await writeLedgerFile(file, ledger.take());
    // Port 1 on the loopback interface refuses connections.
    await expect(publishLedgerFile({ servers: 'nats://127.0.0.1:1', file, logger: silentLogger() })).rejects.toThrow(
      'cannot connect to NATS at nats://127.0.0.1:1',
    );
  });
});
