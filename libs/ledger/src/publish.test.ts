import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jetstreamManager, RetentionPolicy } from '@nats-io/jetstream';
import { connect, nanos } from '@nats-io/transport-node';
import { createLogger, silentLogger } from '@ledger-api/observability';
import { Writable } from 'node:stream';
import { publishLedgerFile } from './publish';
import { TestNatsServer } from './testing/nats-server';
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

  it('signs in to a server that asks for it, creates the stream with the copies and limits asked for once, and seeds only an empty one', async () => {
    const credentials = { user: 'ledger', pass: 'secret' };
    const server = await TestNatsServer.start(credentials);
    const warnings: string[] = [];
    const logger = createLogger({
      name: 'publish',
      level: 'warn',
      destination: new Writable({ write: (line, _encoding, done) => done(void warnings.push(String(line))) }),
    });
    try {
      const file = join(dir, 'signed-in.jsonl');
      const ledger = new TestLedger();
      ledger.block([]);
      await writeLedgerFile(file, ledger.take());
      const settings = { replicas: 1, maxBytes: 64 * 1024 * 1024, maxAgeSeconds: 7 * 86_400 };
      const publish = (options: Partial<Parameters<typeof publishLedgerFile>[0]>) =>
        publishLedgerFile({ servers: server.url, file, logger, stream: 'SIGNED', ...options });
      await expect(publish({ streamSettings: settings })).rejects.toThrow(/Authorization Violation/);
      expect(await publish({ credentials, streamSettings: settings })).toMatchObject({ stream: 'SIGNED', applied: 1 });

      const connection = await connect({ servers: server.url, ...credentials });
      const config = async () => (await (await jetstreamManager(connection)).streams.info('SIGNED')).config;
      expect(await config()).toMatchObject({
        retention: RetentionPolicy.Limits,
        num_replicas: 1,
        max_bytes: 64 * 1024 * 1024,
        max_age: nanos(7 * 86_400_000),
      });
      // Other settings leave the stream as it is, and say so.
      await publish({ credentials, streamSettings: { ...settings, maxBytes: -1 } });
      expect((await config()).max_bytes).toBe(64 * 1024 * 1024);
      expect(warnings.join('')).toContain('the ledger stream exists with other settings than configured');
      // A seed publishes into an empty stream only.
      const held = (await (await jetstreamManager(connection)).streams.info('SIGNED')).state.messages;
      expect(await publish({ credentials, onlyIntoEmptyStream: true })).toMatchObject({ applied: 0, skipped: true });
      expect((await (await jetstreamManager(connection)).streams.info('SIGNED')).state.messages).toBe(held);
      expect(await publish({ credentials, stream: 'SEEDED', subjectPrefix: 'seeded.block', onlyIntoEmptyStream: true })).toMatchObject({
        applied: 1,
        lastSeq: 1,
      });
      await connection.close();
    } finally {
      await server.dispose();
    }
  });
});
