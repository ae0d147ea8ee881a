import type { DeepReadonly } from './deep-readonly';
import type { Doc } from './types';

/** A write whose document its writer never changes again (see EmbeddedEngine.applyHeldWrites). */
export interface HeldWrite {
  readonly collection: string;
  readonly id: string;
  readonly doc: DeepReadonly<Doc> | null;
}

/**
 * What the embedded engine offers beyond the Store contract, for the one
 * writer that replays the ledger into it: documents shared rather than copied
 * both ways, and indexes sorted once when the catch-up is over. A shared
 * document is read-only at every depth for the caller and the store alike (a
 * write replaces a document whole), which the type says and, outside
 * production, the writer's guard enforces. MongoDB offers none of this: its
 * writer keeps to the Store contract, and what it runs and stores is the same
 * whichever engine the writer could have had.
 */
export interface EmbeddedEngine {
  /**
   * The document as held, not a copy; of a collection with opaque members
   * (CollectionSpec.opaqueMembers), a new document sharing every other member.
   */
  findShared<T extends Doc>(collection: string, id: string): Promise<DeepReadonly<T> | null>;
  /**
   * The document as the engine holds it, opaque members packed: for the writer to keep whole inside
   * another document it hands over (an undo record's before-image) at no cost, which readers through
   * the Store contract get back as they would get the document itself.
   */
  findHeld(collection: string, id: string): DeepReadonly<Doc> | null;
  /** Applies the writes as applyWrites does, holding each document as it is rather than a copy. */
  applyHeldWrites(writes: readonly HeldWrite[]): Promise<void>;
  /**
   * Between these two, the only reader is the writer catching up with the
   * ledger: the indexes fall out of order and are sorted once when told the
   * catch-up is over, before anyone else reads. Reads in between stay correct.
   */
  deferOrder(): void;
  restoreOrder(): void;
}
