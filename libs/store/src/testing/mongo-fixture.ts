import { randomUUID } from 'node:crypto';
import type { StoreFixture } from './contract/store-contract';

/**
 * A store over a database of its own on the MongoDB server at `url`, dropped on
 * dispose. The driver is loaded only here, so suites that skip without a
 * server never load it.
 */
export async function freshMongoStore(url: string, prefix: string): Promise<StoreFixture & { dbName: string }> {
  const dbName = `${prefix}_${process.pid}_${randomUUID().slice(0, 8)}`;
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a load on first use, which a static import cannot be
  const { MongoStore } = require('../mongo-store') as typeof import('../mongo-store');
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- as above
  const { MongoClient } = require('mongodb') as typeof import('mongodb');
  const store = await MongoStore.connect(url, dbName);
  return {
    store,
    dbName,
    async dispose() {
      await store.close();
      const admin = await MongoClient.connect(url);
      try {
        await admin.db(dbName).dropDatabase();
      } finally {
        await admin.close();
      }
    },
  };
}
