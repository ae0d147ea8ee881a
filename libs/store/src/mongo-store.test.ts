import { existsSync } from 'node:fs';
import { MongoClient, MongoNetworkError, MongoServerError } from 'mongodb';
import { describeStoreContract } from './testing/contract/store-contract';
import { freshMongoStore } from './testing/mongo-fixture';
import { QueryTimeoutError, StoreUnavailableError } from './errors';
import { groupConsecutiveWrites, MongoStore, storeFailure } from './mongo-store';
import type { Write } from './types';
import { expectWithinDeadline } from '@ledger-api/test-kit';

const mongoUrl = process.env.MONGO_URL;

describe('groupConsecutiveWrites', () => {
  it('groups only neighbouring writes to the same collection, keeping overall order', () => {
    const write = (collection: string, id: string): Write => ({ collection, id, doc: null });
    const writes = [write('a', '1'), write('a', '2'), write('b', '3'), write('a', '4'), write('a', '5')];
    expect(groupConsecutiveWrites(writes)).toEqual([
      { collection: 'a', writes: [writes[0], writes[1]] },
      { collection: 'b', writes: [writes[2]] },
      { collection: 'a', writes: [writes[3], writes[4]] },
    ]);
    expect(groupConsecutiveWrites([])).toEqual([]);
  });
});

describe('storeFailure', () => {
  it('makes a query stopped by maxTimeMS a QueryTimeoutError, not an outage', () => {
    const timeout = new MongoServerError({ code: 50, codeName: 'MaxTimeMSExpired', errmsg: 'operation exceeded time limit' });
    const failure = storeFailure(timeout);
    expect(failure).toBeInstanceOf(QueryTimeoutError);
    expect((failure as QueryTimeoutError).cause).toBe(timeout);
  });

  it('makes other driver failures StoreUnavailableError and passes anything else through', () => {
    expect(storeFailure(new MongoNetworkError('connect ECONNREFUSED'))).toBeInstanceOf(StoreUnavailableError);
    expect(storeFailure(new MongoServerError({ code: 13, errmsg: 'unauthorized' }))).toBeInstanceOf(StoreUnavailableError);
    const bug = new TypeError('x is undefined');
    expect(storeFailure(bug)).toBe(bug);
  });
});

describe('MongoStore without a reachable server', () => {
  it('fails to connect with StoreUnavailableError within the selection timeout, hiding the driver message', async () => {
    const selectionTimeoutMs = 300;
    const startedAt = Date.now();
    const failure = await MongoStore.connect('mongodb://127.0.0.1:1/?directConnection=true', 'unreachable', {
      serverSelectionTimeoutMs: selectionTimeoutMs,
    }).then(
      () => null,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(StoreUnavailableError);
    const error = failure as StoreUnavailableError;
    expect(error.message).toBe('The data store is unavailable');
    expect(error.message).not.toMatch(/127\.0\.0\.1|ECONNREFUSED|Mongo/);
    expect(error.cause).toBeInstanceOf(Error);
    expectWithinDeadline(Date.now() - startedAt, selectionTimeoutMs);
  });
});

// A real MongoDB: the one MONGO_URL names, or a throwaway container where a container
// engine runs. With neither, the contract suite is reported as skipped, by name.
const containerEngine = Boolean(process.env.DOCKER_HOST) || existsSync('/var/run/docker.sock');
const realMongo = Boolean(mongoUrl) || containerEngine;
const describeWithMongo = realMongo ? describe : describe.skip;
const mongoSuiteName = realMongo ? 'MongoStore' : 'MongoStore (skipped: no MONGO_URL and no container engine)';

describeWithMongo(mongoSuiteName, () => {
  let url = mongoUrl;
  let container: { stop(): Promise<unknown> } | undefined;

  beforeAll(async () => {
    if (url) return;
    const { GenericContainer } = await import('testcontainers');
    // A single-node replica set, as deployed: transactions and snapshot reads need one.
    const started = await new GenericContainer('mongo:7').withCommand(['--replSet', 'rs0', '--bind_ip_all']).withExposedPorts(27017).start();
    container = started;
    const initiated = await started.exec([
      'mongosh',
      '--quiet',
      '--eval',
      "rs.initiate({ _id: 'rs0', members: [{ _id: 0, host: 'localhost:27017' }] })",
    ]);
    if (initiated.exitCode !== 0) throw new Error(`rs.initiate failed: ${initiated.output}`);
    url = `mongodb://${started.getHost()}:${started.getMappedPort(27017)}/?directConnection=true`;
  }, 180_000);

  afterAll(async () => {
    await container?.stop();
  });

  const freshStore = () => freshMongoStore(url!, 'store_contract');

  describeStoreContract(freshStore);

  it('stores opaque members as the plain JSON they were written as, for anyone reading the database', async () => {
    const fixture = await freshStore();
    try {
      const tx = { id: 'ab'.repeat(32), type: 2, asset: { nftIds: ['cd'.repeat(32)] }, fee: '5' };
      await fixture.store.ensureCollections([{ name: 'records', indexes: [], opaqueMembers: ['tx'] }]);
      await fixture.store.applyWrites([{ collection: 'records', id: 'r', doc: { _id: 'r', tx } }]);
      const reader = await MongoClient.connect(url!);
      try {
        const raw = await reader
          .db(fixture.dbName)
          .collection('records')
          .findOne({ 'tx.asset.nftIds': 'cd'.repeat(32) });
        expect(raw).toEqual({ _id: 'r', tx });
      } finally {
        await reader.close();
      }
    } finally {
      await fixture.dispose();
    }
  });

  describe('on a replica set', () => {
    let fixture: Awaited<ReturnType<typeof freshStore>>;
    const write = (id: string, value: number): Write => ({ collection: 'items', id, doc: { _id: id, value } });

    beforeEach(async () => {
      fixture = await freshStore();
      // Collections must exist before a transaction writes to them on servers before 4.4.
      await fixture.store.applyWrites([write('a', 0), write('b', 0)]);
    });

    afterEach(() => fixture.dispose());

    it('runs a commit as one transaction: a failing step leaves none of its writes', async () => {
      const { store } = fixture;
      expect(store.atomic).toBe(true);
      const failing = store.commit(async () => {
        await store.applyWrites([write('a', 1)]);
        await store.applyWrites([write('b', 1)]);
        throw new Error('the projection failed mid-block');
      });
      await expect(failing).rejects.toThrow('the projection failed mid-block');
      expect(await store.collection('items').find({}, { sort: { _id: 1 } })).toEqual([
        { _id: 'a', value: 0 },
        { _id: 'b', value: 0 },
      ]);
    });

    it('hides a commit from a reader until the commit ends', async () => {
      const { store } = fixture;
      let release!: () => void;
      let firstStepWritten!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      const midway = new Promise<void>((resolve) => (firstStepWritten = resolve));
      const commit = store.commit(async () => {
        await store.applyWrites([write('a', 1)]);
        firstStepWritten();
        await held;
        await store.applyWrites([write('b', 1)]);
      });
      await midway;
      expect(await store.collection('items').find({}, { sort: { _id: 1 } })).toEqual([
        { _id: 'a', value: 0 },
        { _id: 'b', value: 0 },
      ]);
      release();
      await commit;
      expect(await store.collection('items').count({ value: 1 })).toBe(2);
    });

    it('reads a request in one snapshot: a commit during it is not seen', async () => {
      const { store } = fixture;
      const reads = await store.readConsistently(async () => {
        const before = await store.collection('items').findById('a');
        // A commit from elsewhere (the projector) lands between two reads of one request.
        await store.commit(() => store.applyWrites([write('a', 2), write('b', 2)]));
        const after = await store.collection('items').find({}, { sort: { _id: 1 } });
        return { before, after };
      });
      expect(reads.before).toEqual({ _id: 'a', value: 0 });
      expect(reads.after).toEqual([
        { _id: 'a', value: 0 },
        { _id: 'b', value: 0 },
      ]);
      expect(await store.collection('items').count({ value: 2 })).toBe(2);
    });
  });
});
