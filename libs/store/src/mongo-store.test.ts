import { randomUUID } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { describeStoreContract } from './contract/store-contract';
import { StoreUnavailableError } from './errors';
import { groupConsecutiveWrites, MongoStore } from './mongo-store';
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

// The one allowed skip: these contract tests need a real MongoDB, which only runs where MONGO_URL points at one.
const describeWithMongo = mongoUrl ? describe : describe.skip;
const mongoSuiteName = mongoUrl ? 'MongoStore' : 'MongoStore (skipped: MONGO_URL not set)';

describeWithMongo(mongoSuiteName, () => {
  describeStoreContract(async () => {
    const dbName = `store_contract_${process.pid}_${randomUUID().slice(0, 8)}`;
    const store = await MongoStore.connect(mongoUrl!, dbName);
    return {
      store,
      async dispose() {
        await store.close();
        const admin = await MongoClient.connect(mongoUrl!);
        try {
          await admin.db(dbName).dropDatabase();
        } finally {
          await admin.close();
        }
      },
    };
  });
});
