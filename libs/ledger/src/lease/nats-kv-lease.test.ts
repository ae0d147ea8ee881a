import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { createLogger } from '@ledger-api/observability';
import { waitFor } from '@ledger-api/test-kit';
import { NatsKvLease } from './nats-kv-lease';

/** The replicas of the lease bucket reach the server: the shared test server is a single node, which takes one copy only. */
const NATS = 'nats://127.0.0.1:4222';

let connection: NatsConnection;
const buckets: string[] = [];

beforeAll(async () => (connection = await connect({ servers: NATS })));

afterAll(async () => {
  const jsm = await jetstreamManager(connection);
  for (const bucket of buckets) await jsm.streams.delete(`KV_${bucket}`).catch(() => undefined);
  await connection.close();
});

function leaseWithReplicas(replicas: number) {
  const bucket = `lease_replicas_${process.pid}_${randomBytes(4).toString('hex')}`;
  buckets.push(bucket);
  const lines: { msg: string; err?: { message: string } }[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as (typeof lines)[number]);
      done();
    },
  });
  const logger = createLogger({ name: 'lease-test', level: 'warn', destination });
  return { bucket, lines, lease: new NatsKvLease({ servers: NATS, key: 'LEDGER.test-projector', bucket, replicas, ttlMs: 1_500, logger }) };
}

describe('the lease bucket', () => {
  it('is created with the replicas given', async () => {
    const { bucket, lease } = leaseWithReplicas(1);
    const held = await lease.acquire(new AbortController().signal);
    expect(held).toBeDefined();
    const info = await (await jetstreamManager(connection)).streams.info(`KV_${bucket}`);
    expect(info.config.num_replicas).toBe(1);
    await lease.release();
  });

  it('asks the server for three copies when given three, which a single node refuses', async () => {
    const { lines, lease } = leaseWithReplicas(3);
    const stop = new AbortController();
    const acquiring = lease.acquire(stop.signal);
    await waitFor(() => lines.length > 0, 'a failed attempt to create the bucket');
    stop.abort();
    expect(await acquiring).toBeUndefined();
    expect(lines[0]).toMatchObject({ msg: 'projector lease unavailable; trying again', err: { message: expect.stringMatching(/replicas > 1/) } });
    await lease.release();
  });
});
