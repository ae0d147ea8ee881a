import type { CollectionSpec, DeepReadonly, Doc, Store } from '@ledger-api/store';
import type { Block, Transaction } from '../types';

/**
 * What a projection sees while one block is applied. Reads see the writes made
 * earlier in the same block. Writes are buffered and stored together with the
 * block's undo record, so every block can be reverted exactly without any
 * per-type revert logic.
 */
export interface ProjectionContext {
  readonly block: Block;
  /**
   * The document as stored (or as this block put it), possibly shared with
   * the store rather than copied: read-only at every depth. To change a
   * document, put a new one built from it (`{ ...doc, member }`), which may
   * share the members it leaves alone.
   */
  get<T extends Doc>(collection: string, id: string): Promise<DeepReadonly<T> | null>;
  /**
   * Takes the document over as it is, without a copy: from then on it is
   * read-only at every depth, for the projection too.
   */
  put(collection: string, doc: DeepReadonly<Doc>): void;
  remove(collection: string, id: string): void;
}

/** An area's read model: the collections it owns and how a transaction changes them. */
export interface Projection {
  readonly area: string;
  readonly collections: CollectionSpec[];
  /** Whether the area projects this transaction: the ones a live stream lists for its block. */
  projects(tx: Transaction): boolean;
  /** Called for every transaction of an applied block, in block order. */
  applyTransaction(ctx: ProjectionContext, tx: Transaction, sequence: number): Promise<void>;
}

/**
 * What the runner needs of a store: by-id reads, ordered writes and the undo lookup at start. Where the store is the
 * embedded engine, the runner shares documents with it and defers its order while catching up (EmbeddedEngine).
 */
export type LedgerStore = Pick<Store, 'collection' | 'applyWrites' | 'commit' | 'ensureCollections' | 'atomic'>;

/** What handling one ledger event did to the read model. */
export type HandleOutcome = 'applied' | 'reverted' | 'duplicate';
