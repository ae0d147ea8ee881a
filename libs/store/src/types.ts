/**
 * The storage contract every service codes against. Queries are MongoDB query
 * documents; the MongoDB adapter passes them to the driver and the embedded
 * adapter evaluates the same documents in-process with mingo.
 */

export interface Doc {
  _id: string;
  [field: string]: unknown;
}

/** A MongoDB query document, e.g. `{ name: { $regex: '^Test', $options: 'i' } }`. */
export type Filter = Record<string, unknown>;

/** A MongoDB sort document; key order is significant. */
export type Sort = Record<string, 1 | -1>;

export interface FindOptions {
  sort?: Sort;
  skip?: number;
  limit?: number;
}

/** Reads return documents the caller owns: changing them never reaches the store. */
export interface ReadCollection<T extends Doc = Doc> {
  findById(id: string): Promise<T | null>;
  findOne(filter: Filter, options?: FindOptions): Promise<T | null>;
  find(filter: Filter, options?: FindOptions): Promise<T[]>;
  count(filter: Filter): Promise<number>;
  /**
   * The number of documents in the collection, from its metadata where the
   * backend keeps one (MongoDB: estimatedDocumentCount): no scan, but possibly
   * off by a little after an unclean shutdown. Only for counts the contract
   * calls an estimate.
   */
  estimatedCount(): Promise<number>;
}

export interface IndexSpec {
  /** Field -> direction; a `<path>.$**` key is a MongoDB wildcard index over every field below the path. */
  key: Record<string, 1 | -1>;
  unique?: boolean;
}

export interface CollectionSpec {
  name: string;
  indexes: IndexSpec[];
}

/** One document-level change: `doc: null` deletes the document with that id. */
export interface Write {
  collection: string;
  id: string;
  doc: Doc | null;
}

export interface Store {
  readonly kind: 'embedded' | 'mongodb';
  collection<T extends Doc = Doc>(name: string): ReadCollection<T>;
  ensureCollections(specs: CollectionSpec[]): Promise<void>;
  /** Applies the writes in order (replace-or-insert, or delete). */
  applyWrites(writes: Write[]): Promise<void>;
  /** Resolves when the backing server answers; rejects otherwise. */
  ping(): Promise<void>;
  close(): Promise<void>;
}
