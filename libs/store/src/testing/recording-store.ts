import type { CollectionSpec, Doc, Filter, FindOptions, ReadCollection, Sort, Store, Write } from '../types';

export type ReadOperation = 'findById' | 'findOne' | 'find' | 'count' | 'estimatedCount';

/** One read a caller issued: the query document and sort it passed to the store, and the keyset boundary of a keyset read. */
export interface RecordedRead {
  collection: string;
  operation: ReadOperation;
  filter: Filter;
  sort?: Sort;
  after?: unknown[];
}

/**
 * A store that answers from the store it wraps and writes down every read, so
 * a test can see the exact query documents a repository builds without a
 * MongoDB server.
 */
export class RecordingStore implements Store {
  readonly reads: RecordedRead[] = [];

  constructor(private readonly inner: Store) {}

  get kind() {
    return this.inner.kind;
  }

  get atomic() {
    return this.inner.atomic;
  }

  /** The reads recorded since the last call, which starts a fresh record. */
  takeReads(): RecordedRead[] {
    return this.reads.splice(0);
  }

  collection<T extends Doc = Doc>(name: string): ReadCollection<T> {
    const inner = this.inner.collection<T>(name);
    const record = (operation: ReadOperation, filter: Filter, sort?: Sort, after?: unknown[]) =>
      this.reads.push({ collection: name, operation, filter, ...(sort && { sort }), ...(after && { after }) });
    return {
      findById: (id) => {
        record('findById', { _id: id });
        return inner.findById(id);
      },
      findOne: (filter: Filter, options?: FindOptions) => {
        record('findOne', filter, options?.sort, options?.after);
        return inner.findOne(filter, options);
      },
      find: (filter: Filter, options?: FindOptions) => {
        record('find', filter, options?.sort, options?.after);
        return inner.find(filter, options);
      },
      count: (filter: Filter) => {
        record('count', filter);
        return inner.count(filter);
      },
      estimatedCount: () => {
        record('estimatedCount', {});
        return inner.estimatedCount();
      },
    };
  }

  ensureCollections(specs: CollectionSpec[]): Promise<void> {
    return this.inner.ensureCollections(specs);
  }

  applyWrites(writes: Write[]): Promise<void> {
    return this.inner.applyWrites(writes);
  }

  commit(work: () => Promise<void>): Promise<void> {
    return this.inner.commit(work);
  }

  readConsistently<T>(work: () => Promise<T>): Promise<T> {
    return this.inner.readConsistently(work);
  }

  ping(): Promise<void> {
    return this.inner.ping();
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
