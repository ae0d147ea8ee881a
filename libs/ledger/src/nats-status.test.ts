import { randomBytes } from 'node:crypto';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import { silentLogger } from '@ledger-api/observability';
import { waitFor } from '@ledger-api/test-kit';
import { NatsKvLease } from './lease/nats-kv-lease';
import { LedgerNatsStatus } from './nats-status';
import { JetStreamLedgerSource } from './sources/jetstream';
import { publishEvents } from './testing/ledger-publisher';
import { countedBy } from './testing/sender-count-projection';
import { TestLedger, testPublicKey } from './testing/test-ledger';
import { EMPTY_POSITION } from './types';

const NATS = 'nats://127.0.0.1:4222';
const run = `${process.pid}_${randomBytes(4).toString('hex')}`;
const names = { stream: `LEDGER_STATUS_${run}`, subjectPrefix: `test.${run}.ledger.block` };
const bucket = `ledger-status-leases-${run}`;

let connection: NatsConnection;
let jsm: JetStreamManager;
let status: LedgerNatsStatus;

beforeAll(async () => {
  connection = await connect({ servers: NATS });
  jsm = await jetstreamManager(connection);
  status = await LedgerNatsStatus.connect(NATS, names.stream);
});

afterAll(async () => {
  await status?.close();
  await jsm.streams.delete(names.stream).catch(() => undefined);
  await jsm.streams.delete(`KV_${bucket}`).catch(() => undefined);
  await connection?.close();
});

describe('the ledger status in NATS', () => {
  it('lists an area’s consumers with the events each has not handled', async () => {
    expect(await status.consumers('guardian-')).toEqual([]);
    const ledger = new TestLedger();
    for (let i = 0; i < 3; i += 1) ledger.block([countedBy(ledger, testPublicKey('alice'))]);
    await publishEvents({ servers: NATS, ...names, events: ledger.take(), form: 'bare' });
    const source = new JetStreamLedgerSource({ servers: NATS, logger: silentLogger(), ...names, consumerName: 'guardian-projector' });
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const running = source.run(() => held, EMPTY_POSITION);
    try {
      await waitFor(async () => (await status.consumers('guardian-')).length === 1, 'the consumer');
      expect(await status.consumers('guardian-')).toEqual([{ name: 'guardian-projector', pending: 3 }]);
      expect(await status.consumers('nft-base-')).toEqual([]);
    } finally {
      release();
      await source.stop();
      await running;
    }
  });

  it('names the holder of a lease, and nobody once it is released or before any was taken', async () => {
    const key = `${names.stream}.guardian-projector`;
    expect(await status.leaseHolder(key, bucket)).toBeNull();
    const lease = new NatsKvLease({ servers: NATS, key, logger: silentLogger(), bucket, holder: 'host-a-1', ttlMs: 3_000 });
    await lease.acquire(new AbortController().signal);
    expect(await status.leaseHolder(key, bucket)).toBe('host-a-1');
    await lease.release();
    expect(await status.leaseHolder(key, bucket)).toBeNull();
  });
});
