import { AsyncLocalStorage } from 'node:async_hooks';
import {
  type AnyBulkWriteOperation,
  type ClientSession,
  type Collection,
  type Db,
  MongoClient,
  MongoError,
  type Filter as MongoFilter,
} from 'mongodb';
import { QueryTimeoutError, StoreUnavailableError } from './errors';
import { withKeyset } from './keyset';
import type { CollectionSpec, Doc, Filter, FindOptions, ReadCollection, Store, Write } from './types';

export interface MongoStoreOptions {
  /** How long an operation waits for a reachable server before failing; keeps requests from hanging. */
  serverSelectionTimeoutMs?: number;
  /** Server-side time limit for each read. */
  queryTimeoutMs?: number;
}

const DEFAULT_SERVER_SELECTION_TIMEOUT_MS = 5000;
const DEFAULT_QUERY_TIMEOUT_MS = 10000;

/** MongoDB's code for an operation stopped by its `maxTimeMS`. */
const MAX_TIME_MS_EXPIRED = 50;

/**
 * The error a driver failure becomes: a query stopped by its time limit is a
 * QueryTimeoutError, any other driver failure a StoreUnavailableError;
 * anything else is a bug and passes through unchanged.
 */
export function storeFailure(error: unknown): unknown {
  if (!(error instanceof MongoError)) return error;
  if (error.code === MAX_TIME_MS_EXPIRED) return new QueryTimeoutError({ cause: error });
  return new StoreUnavailableError({ cause: error });
}

async function unlessUnavailable<T>(operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    throw storeFailure(error);
  }
}

/**
 * The session the current commit or consistent read runs in. Carried by the
 * async context rather than passed along, so repositories and the projection
 * runner stay unaware of sessions; requests running at the same time each
 * keep their own.
 */
const currentSession = new AsyncLocalStorage<ClientSession>();

/** Consecutive writes to the same collection, so each run is one ordered bulkWrite and overall order holds. */
export function groupConsecutiveWrites(writes: readonly Write[]): { collection: string; writes: Write[] }[] {
  const runs: { collection: string; writes: Write[] }[] = [];
  for (const write of writes) {
    const last = runs[runs.length - 1];
    if (last && last.collection === write.collection) last.writes.push(write);
    else runs.push({ collection: write.collection, writes: [write] });
  }
  return runs;
}

function toBulkOperation({ id, doc }: Write): AnyBulkWriteOperation<Doc> {
  if (!doc) return { deleteOne: { filter: { _id: id } } };
  // The filter supplies _id on insert, so the stored id is always the write's id.
  const { _id: ignoredId, ...replacement } = doc;
  return { replaceOne: { filter: { _id: id }, replacement, upsert: true } };
}

class MongoReadCollection<T extends Doc> implements ReadCollection<T> {
  constructor(
    private readonly collection: Collection<Doc>,
    private readonly queryTimeoutMs: number,
  ) {}

  findById(id: string): Promise<T | null> {
    return this.findOne({ _id: id });
  }

  findOne(filter: Filter, { sort, skip, after }: FindOptions = {}): Promise<T | null> {
    return unlessUnavailable(async () => {
      const doc = await this.collection.findOne(withKeyset(filter, sort, after) as MongoFilter<Doc>, { sort, skip, ...this.readOptions() });
      return doc as T | null;
    });
  }

  find(filter: Filter, { sort, skip, limit, after }: FindOptions = {}): Promise<T[]> {
    return unlessUnavailable(async () => {
      const cursor = this.collection.find(withKeyset(filter, sort, after) as MongoFilter<Doc>, { sort, skip, limit, ...this.readOptions() });
      return (await cursor.toArray()) as T[];
    });
  }

  count(filter: Filter): Promise<number> {
    return unlessUnavailable(() => this.collection.countDocuments(filter as MongoFilter<Doc>, this.readOptions()));
  }

  /**
   * From the collection's metadata: no scan, however large the collection.
   * Outside the request's snapshot, which the `count` command behind it does
   * not support; an estimate needs no snapshot.
   */
  estimatedCount(): Promise<number> {
    return unlessUnavailable(() => this.collection.estimatedDocumentCount({ maxTimeMS: this.queryTimeoutMs }));
  }

  private readOptions(): { maxTimeMS: number; session?: ClientSession } {
    const session = currentSession.getStore();
    return session ? { maxTimeMS: this.queryTimeoutMs, session } : { maxTimeMS: this.queryTimeoutMs };
  }
}

/** The store for real deployments, through the official MongoDB driver. */
export class MongoStore implements Store {
  readonly kind = 'mongodb' as const;

  private constructor(
    private readonly client: MongoClient,
    private readonly db: Db,
    private readonly queryTimeoutMs: number,
    /** Transactions and snapshot reads need a replica set; a standalone server has neither. */
    private readonly replicaSet: boolean,
  ) {}

  /** Connects or fails with StoreUnavailableError; a malformed URL throws the driver's parse error. */
  static async connect(url: string, dbName: string, options: MongoStoreOptions = {}): Promise<MongoStore> {
    const timeoutMs = options.serverSelectionTimeoutMs ?? DEFAULT_SERVER_SELECTION_TIMEOUT_MS;
    const client = new MongoClient(url, { serverSelectionTimeoutMS: timeoutMs, connectTimeoutMS: timeoutMs });
    let hello;
    try {
      await unlessUnavailable(() => client.connect());
      hello = await unlessUnavailable(() => client.db('admin').command({ hello: 1 }));
    } catch (error) {
      await client.close();
      throw error;
    }
    const replicaSet = typeof hello.setName === 'string';
    return new MongoStore(client, client.db(dbName), options.queryTimeoutMs ?? DEFAULT_QUERY_TIMEOUT_MS, replicaSet);
  }

  get atomic(): boolean {
    return this.replicaSet;
  }

  collection<T extends Doc = Doc>(name: string): ReadCollection<T> {
    return new MongoReadCollection<T>(this.db.collection<Doc>(name), this.queryTimeoutMs);
  }

  async ensureCollections(specs: CollectionSpec[]): Promise<void> {
    for (const { name, indexes } of specs) {
      if (indexes.length === 0) continue;
      const models = indexes.map(({ key, unique }) => (unique === undefined ? { key } : { key, unique }));
      await unlessUnavailable(() => this.db.collection(name).createIndexes(models));
    }
  }

  async applyWrites(writes: Write[]): Promise<void> {
    const session = currentSession.getStore();
    // Inside a transaction the driver's own error must reach withTransaction, which retries the transient ones.
    if (session) return this.bulkWrite(writes, session);
    await unlessUnavailable(() => this.bulkWrite(writes));
  }

  async commit(work: () => Promise<void>): Promise<void> {
    if (!this.replicaSet) return work();
    const session = this.client.startSession();
    try {
      await unlessUnavailable(() => session.withTransaction(() => currentSession.run(session, work)));
    } finally {
      await session.endSession();
    }
  }

  async readConsistently<T>(work: () => Promise<T>): Promise<T> {
    if (!this.replicaSet) return work();
    const session = this.client.startSession({ snapshot: true });
    try {
      return await currentSession.run(session, work);
    } finally {
      await session.endSession();
    }
  }

  private async bulkWrite(writes: Write[], session?: ClientSession): Promise<void> {
    for (const run of groupConsecutiveWrites(writes)) {
      const operations = run.writes.map(toBulkOperation);
      await this.db.collection<Doc>(run.collection).bulkWrite(operations, session ? { ordered: true, session } : { ordered: true });
    }
  }

  async ping(): Promise<void> {
    await unlessUnavailable(() => this.db.admin().command({ ping: 1 }));
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}
