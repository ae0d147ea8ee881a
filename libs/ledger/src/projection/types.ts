import type { CollectionSpec, Doc, Store } from '@ledger-api/store';
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
   * The document as stored (or as this block put it), not a copy: the
   * projection must not change it, nor anything it holds. To change a
   * document, put a new one built from it (`{ ...doc, member }`), which may
   * share the members it leaves alone.
   */
  get<T extends Doc>(collection: string, id: string): Promise<Readonly<T> | null>;
  /**
   * Takes the document over as it is, without a copy: the projection must not
   * change it, nor anything it holds, afterwards.
   */
  put(collection: string, doc: Doc): void;
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

/** What the runner needs of a store: by-id reads, ordered writes, the undo lookup at start, and word of a catch-up. */
export type LedgerStore = Pick<
  Store,
  'collection' | 'applyWrites' | 'commit' | 'ensureCollections' | 'atomic' | 'holdsHandedOver' | 'deferOrder' | 'restoreOrder'
>;

/** What handling one ledger event did to the read model. */
export type HandleOutcome = 'applied' | 'reverted' | 'duplicate';
