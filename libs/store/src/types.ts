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
  /**
   * A boundary record's values of every field of `sort`, in sort order: only
   * documents strictly after it in that sort are found (keyset paging). The
   * boundary need not exist; skip and limit apply after it.
   */
  after?: unknown[];
}

/**
 * Where a keyset read starts: at the first or the last page, or beside the
 * record whose sort values are given (the page after it, or the one before).
 */
export type KeysetPosition = { kind: 'first' } | { kind: 'last' } | { kind: 'after'; values: unknown[] } | { kind: 'before'; values: unknown[] };

/** The keyset positions of the pages beside a keyset read's page; null where there is none. */
export interface AdjacentPages {
  next: KeysetPosition | null;
  previous: KeysetPosition | null;
}

export interface Page<T> {
  items: T[];
  totalCount: number;
  /** Present on keyset reads (a request with a cursor). */
  adjacent?: AdjacentPages;
}

/** What a paged read needs of a collection; a store collection is one. */
export interface PageSource<T> {
  find(filter: Filter, options: FindOptions): Promise<T[]>;
  count(filter: Filter): Promise<number>;
  estimatedCount(): Promise<number>;
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
  /**
   * Members that no filter, sort or index reads, only ever read back whole
   * (a ledger record's transaction as received). Every store gives them back
   * as written; one may hold them in a compact form of its own meanwhile.
   */
  opaqueMembers?: string[];
}

/** One document-level change: `doc: null` deletes the document with that id. */
export interface Write {
  collection: string;
  id: string;
  doc: Doc | null;
}

export interface Store {
  readonly kind: 'embedded' | 'mongodb';
  /**
   * Whether commits are transactions and readConsistently gives snapshot reads
   * (MongoDB as a replica set); otherwise readers rely on the commit marker.
   */
  readonly atomic: boolean;
  collection<T extends Doc = Doc>(name: string): ReadCollection<T>;
  ensureCollections(specs: CollectionSpec[]): Promise<void>;
  /**
   * Applies the writes in order (replace-or-insert, or delete). The store keeps
   * its own copy: changing a document after writing it never reaches the store.
   */
  applyWrites(writes: Write[]): Promise<void>;
  /**
   * Runs `work`, whose applyWrites calls make up one commit, so that readers
   * see all of it or none where the backend can promise that (MongoDB as a
   * replica set: one transaction, run again whole after a transient error, so
   * `work` must only write). Elsewhere the writes land in order as they come,
   * and readers rely on the commit marker stored with the ledger position.
   */
  commit(work: () => Promise<void>): Promise<void>;
  /**
   * Runs `work` with all its reads taken at one point in time where the backend
   * can (MongoDB as a replica set: a snapshot session), so a reader never mixes
   * two commits; elsewhere the reads run as they come.
   */
  readConsistently<T>(work: () => Promise<T>): Promise<T>;
  /** Resolves when the backing server answers; rejects otherwise. */
  ping(): Promise<void>;
  close(): Promise<void>;
}
