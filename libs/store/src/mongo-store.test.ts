import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { MongoClient, MongoNetworkError, MongoServerError } from 'mongodb';
import { describeStoreContract } from './contract/store-contract';
import { QueryTimeoutError, StoreUnavailableError } from './errors';
import { groupConsecutiveWrites, MongoStore, storeFailure } from './mongo-store';
import type { Write } from './types';

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
    const startedAt = Date.now();
    const failure = await MongoStore.connect('mongodb://127.0.0.1:1/?directConnection=true', 'unreachable', { serverSelectionTimeoutMs: 300 }).then(
      () => null,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(StoreUnavailableError);
    const error = failure as StoreUnavailableError;
    expect(error.message).toBe('The data store is unavailable');
    expect(error.message).not.toMatch(/127\.0\.0\.1|ECONNREFUSED|Mongo/);
    expect(error.cause).toBeInstanceOf(Error);
    expect(Date.now() - startedAt).toBeLessThan(3000);
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
    const started = await new GenericContainer('mongo:7').withExposedPorts(27017).start();
    container = started;
    url = `mongodb://${started.getHost()}:${started.getMappedPort(27017)}/?directConnection=true`;
  }, 180_000);

  afterAll(async () => {
    await container?.stop();
  });

  describeStoreContract(async () => {
    const dbName = `store_contract_${process.pid}_${randomUUID().slice(0, 8)}`;
    const store = await MongoStore.connect(url!, dbName);
    return {
      store,
      async dispose() {
        await store.close();
        const admin = await MongoClient.connect(url!);
        try {
          await admin.db(dbName).dropDatabase();
        } finally {
          await admin.close();
        }
      },
    };
  });
});
