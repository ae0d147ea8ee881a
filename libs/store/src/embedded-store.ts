import { copyDocument } from './embedded/copy-document';
import { EmbeddedCollection } from './embedded/embedded-collection';
import { OpaqueMembers, readableCopy } from './embedded/opaque-members';
import type { DeepReadonly } from './deep-readonly';
import type { EmbeddedEngine, HeldWrite } from './embedded-engine';
import type { CollectionSpec, Doc, Filter, FindOptions, ReadCollection, Store, Write } from './types';

/** Callers and the store share no object they may change, so neither can change the other's state. */
class EmbeddedReadCollection<T extends Doc> implements ReadCollection<T> {
  constructor(
    private readonly documents: EmbeddedCollection,
    private readonly opaque: OpaqueMembers,
  ) {}

  async findById(id: string): Promise<T | null> {
    const doc = this.documents.get(id);
    return doc ? this.copied(doc) : null;
  }

  async findOne(filter: Filter, options: FindOptions = {}): Promise<T | null> {
    const [doc] = this.documents.find(filter, { ...options, limit: 1 });
    return doc ? this.copied(doc) : null;
  }

  async find(filter: Filter, options?: FindOptions): Promise<T[]> {
    return this.documents.find(filter, options).map((doc) => this.copied(doc));
  }

  async count(filter: Filter): Promise<number> {
    return this.documents.count(filter);
  }

  /** The embedded store knows its size exactly, so the estimate is the exact count. */
  async estimatedCount(): Promise<number> {
    return this.documents.count({});
  }

  /** Held documents kept inside this one (an undo record's before-images) come unpacked too. */
  private copied(held: Doc): T {
    return copyDocument(held, readableCopy) as T;
  }
}

interface Collection {
  documents: EmbeddedCollection;
  opaque: OpaqueMembers;
  reader: EmbeddedReadCollection<Doc>;
}

/**
 * An in-process store that evaluates the same MongoDB query documents as the
 * MongoDB adapter (through mingo). It starts empty on every run. Through the
 * Store contract it copies every document in and out; through its own
 * interface (EmbeddedEngine) it shares them with the one writer.
 */
export class EmbeddedStore implements Store, EmbeddedEngine {
  readonly kind = 'embedded' as const;
  readonly atomic = false;
  private readonly collections = new Map<string, Collection>();
  private orderDeferred = false;

  collection<T extends Doc = Doc>(name: string): ReadCollection<T> {
    return this.named(name).reader as EmbeddedReadCollection<T>;
  }

  /**
   * Every index keeps its order of the documents as they change, read
   * forwards or backwards, and answers equality and range conditions on its
   * leading field; a wildcard index holds every value below its path. Opaque
   * members are held packed, so they are declared before the collection
   * holds documents.
   */
  async ensureCollections(specs: CollectionSpec[]): Promise<void> {
    for (const spec of specs) {
      const { documents, opaque } = this.named(spec.name);
      const added = opaque.undeclared(spec.opaqueMembers ?? []);
      if (added.length > 0 && documents.count({}) > 0) {
        throw new Error(`collection ${spec.name} already holds documents: its opaque members come too late`);
      }
      opaque.declare(added);
      for (const index of spec.indexes) documents.addIndex(index.key);
    }
  }

  /** Copies every document before touching state, so a bad document leaves the store unchanged. */
  async applyWrites(writes: Write[]): Promise<void> {
    this.apply(writes.map((write) => ({ ...write, doc: write.doc && { ...copyDocument(write.doc), _id: write.id } })));
  }

  /** Nobody changes a held document (a write replaces it whole), so it is shared as it is. */
  async findShared<T extends Doc>(collection: string, id: string): Promise<DeepReadonly<T> | null> {
    const { documents, opaque } = this.named(collection);
    const held = documents.get(id);
    return held ? (opaque.shared(held) as DeepReadonly<T>) : null;
  }

  findHeld(collection: string, id: string): DeepReadonly<Doc> | null {
    return this.named(collection).documents.get(id) ?? null;
  }

  async applyHeldWrites(writes: readonly HeldWrite[]): Promise<void> {
    this.apply(writes);
  }

  /**
   * An embedded store starts empty, so every run replays the whole ledger
   * first: sorting each index once at the end costs far less than keeping it
   * in order write by write. Reads in between stay correct, and pay for it.
   */
  deferOrder(): void {
    this.orderDeferred = true;
    for (const { documents } of this.collections.values()) documents.deferOrder();
  }

  restoreOrder(): void {
    this.orderDeferred = false;
    for (const { documents } of this.collections.values()) documents.restoreOrder();
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

  /**
   * Packs every document's opaque members before the first is stored, so a bad one leaves the store
   * unchanged. A held document is read-only to the store as well: it only ever replaces one whole.
   */
  private apply(writes: readonly HeldWrite[]): void {
    const held = writes.map(({ collection, id, doc }) => {
      const underId = (doc && doc._id !== id ? { ...doc, _id: id } : doc) as Doc | null;
      return underId && this.named(collection).opaque.held(underId);
    });
    for (let index = 0; index < writes.length; index++) {
      const { collection, id } = writes[index];
      const doc = held[index];
      if (doc) this.named(collection).documents.put(doc);
      else this.named(collection).documents.delete(id);
    }
  }

  /** Like MongoDB, a collection springs into existence on first use. */
  private named(name: string): Collection {
    let collection = this.collections.get(name);
    if (!collection) {
      const documents = new EmbeddedCollection();
      if (this.orderDeferred) documents.deferOrder();
      const opaque = new OpaqueMembers();
      collection = { documents, opaque, reader: new EmbeddedReadCollection(documents, opaque) };
      this.collections.set(name, collection);
    }
    return collection;
  }
}

/** The embedded engine behind a store, where it is one; MongoDB has none. */
export function embeddedEngineOf(store: object): EmbeddedEngine | undefined {
  return store instanceof EmbeddedStore ? store : undefined;
}
