import { EmbeddedStore } from './embedded-store';
import type { StoreLogger } from './logger';
import type { MongoStoreOptions } from './mongo-store';
import type { Store } from './types';

export interface CreateStoreOptions extends MongoStoreOptions {
  /** Unset means the embedded store, which starts empty. */
  mongoUrl?: string;
  dbName: string;
  logger?: StoreLogger;
}

/** MongoDB when a URL is configured, otherwise the in-process store. */
export async function createStore({ mongoUrl, dbName, logger, ...mongoOptions }: CreateStoreOptions): Promise<Store> {
  if (!mongoUrl) {
    logger?.info({ store: 'embedded' }, 'Using the embedded store');
    return new EmbeddedStore();
  }
  // Loaded here, with its driver: a process on the embedded store never loads either.
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a load on first use, which a static import cannot be
  const { MongoStore } = require('./mongo-store') as typeof import('./mongo-store');
  const store = await MongoStore.connect(mongoUrl, dbName, mongoOptions);
  // The URL can carry credentials, so only the database name is logged.
  logger?.info({ store: 'mongodb', dbName, transactions: store.atomic }, 'Connected to MongoDB');
  // Without a replica set, api replicas still never cache a torn page (the commit marker sees to that), but may answer one.
  if (!store.atomic)
    logger?.warn({ store: 'mongodb' }, 'MongoDB is not a replica set: block commits are not transactions and reads are not snapshots');
  return store;
}
