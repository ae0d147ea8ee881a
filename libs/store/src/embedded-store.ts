import { copyDocument, freezeDocument } from './embedded/copy-document';
import { EmbeddedCollection } from './embedded/embedded-collection';
import type { CollectionSpec, Doc, Filter, FindOptions, ReadCollection, Store, Write, WriteOptions } from './types';

/** The store's own deep copy of a JSON-shaped document, for callers that must not share objects with it either, and the check that they do not change one they share. */
export { copyDocument, freezeDocument };

/** Callers and the store share no object they may change, so neither can change the other's state. */
class EmbeddedReadCollection<T extends Doc> implements ReadCollection<T> {
  constructor(private readonly documents: EmbeddedCollection) {}

  async findById(id: string): Promise<T | null> {
    const doc = this.documents.get(id);
    return doc ? (copyDocument(doc) as T) : null;
  }

  async findStoredById(id: string): Promise<T | null> {
    return (this.documents.get(id) as T | undefined) ?? null;
  }

  async findOne(filter: Filter, options: FindOptions = {}): Promise<T | null> {
    const [doc] = this.documents.find(filter, { ...options, limit: 1 });
    return doc ? (copyDocument(doc) as T) : null;
  }

  async find(filter: Filter, options?: FindOptions): Promise<T[]> {
    return this.documents.find(filter, options).map((doc) => copyDocument(doc) as T);
  }

  async count(filter: Filter): Promise<number> {
    return this.documents.count(filter);
  }

  /** The embedded store knows its size exactly, so the estimate is the exact count. */
  async estimatedCount(): Promise<number> {
    return this.documents.count({});
  }
}

/**
 * An in-process store that evaluates the same MongoDB query documents as the
 * MongoDB adapter (through mingo). It starts empty on every run.
 */
export class EmbeddedStore implements Store {
  readonly kind = 'embedded' as const;
  readonly atomic = false;
  readonly holdsHandedOver = true;
  private readonly collections = new Map<string, EmbeddedCollection>();
  /** A collection's reader holds no state of its own, so one per collection serves every caller. */
  private readonly readers = new Map<string, EmbeddedReadCollection<Doc>>();
  private orderDeferred = false;

  collection<T extends Doc = Doc>(name: string): ReadCollection<T> {
    let reader = this.readers.get(name);
    if (!reader) {
      reader = new EmbeddedReadCollection(this.documents(name));
      this.readers.set(name, reader);
    }
    return reader as EmbeddedReadCollection<T>;
  }

  /**
   * Every index keeps its order of the documents as they change, read
   * forwards or backwards, and answers equality and range conditions on its
   * leading field; a wildcard index holds every value below its path.
   */
  async ensureCollections(specs: CollectionSpec[]): Promise<void> {
    for (const spec of specs) {
      const documents = this.documents(spec.name);
      for (const index of spec.indexes) documents.addIndex(index.key);
    }
  }

  /**
   * Copies every document before touching state, so a bad document leaves the
   * store unchanged; documents handed over are held as they are, since nobody
   * else will change them (a document is only ever replaced whole).
   */
  async applyWrites(writes: Write[], { handOver = false }: WriteOptions = {}): Promise<void> {
    const held = writes.map(({ id, doc }) => doc && storedDocument(doc, id, handOver));
    for (let index = 0; index < writes.length; index++) {
      const { collection, id } = writes[index];
      const doc = held[index];
      if (doc) this.documents(collection).put(doc);
      else this.documents(collection).delete(id);
    }
  }

  /**
   * An embedded store starts empty, so every run replays the whole ledger
   * first: sorting each index once at the end costs far less than keeping it
   * in order write by write. Reads in between stay correct, and pay for it.
   */
  deferOrder(): void {
    this.orderDeferred = true;
    for (const documents of this.collections.values()) documents.deferOrder();
  }

  restoreOrder(): void {
    this.orderDeferred = false;
    for (const documents of this.collections.values()) documents.restoreOrder();
  }

  /** One process holds the data, so there is no transaction to open: readers follow the commit marker. */
  commit(work: () => Promise<void>): Promise<void> {
    return work();
  }

  readConsistently<T>(work: () => Promise<T>): Promise<T> {
    return work();
  }

  async ping(): Promise<void> {}

  async close(): Promise<void> {}

  /** Like MongoDB, a collection springs into existence on first use. */
  private documents(name: string): EmbeddedCollection {
    let documents = this.collections.get(name);
    if (!documents) {
      documents = new EmbeddedCollection();
      if (this.orderDeferred) documents.deferOrder();
      this.collections.set(name, documents);
    }
    return documents;
  }
}

/** The document as the store holds it: under the write's id, copied unless handed over. */
function storedDocument(doc: Doc, id: string, handOver: boolean): Doc {
  if (!handOver) return { ...copyDocument(doc), _id: id };
  return doc._id === id ? doc : { ...doc, _id: id };
}
