import type { DeepReadonly, Doc, EmbeddedEngine, Write } from '@ledger-api/store';
import type { LedgerStore } from './types';
import type { BlockChanges } from './write-set';

export const UNDO_COLLECTION = '_undo';

/** Everything needed to take one applied block back. */
export interface UndoRecord extends Doc {
  height: number;
  blockId: string;
  previous: { height: number; blockId: string };
  /** The collections the block wrote, whose undo steps are kept beside the record (undo-images.ts). */
  collections: string[];
}

/** What an undo record says of its block, before the collections of its steps are named. */
export type UndoRecordOfBlock = Pick<UndoRecord, '_id' | 'height' | 'blockId' | 'previous'>;

/** Undo record ids sort like heights. */
export function undoRecordId(height: number): string {
  return String(height).padStart(16, '0');
}

/**
 * How to take one document back to its state before a block, the same in
 * every store: the document as it was (`doc`), null for one the block
 * created. A whole before-image costs no diff while the block is applied and
 * is read in one lookup (the document at a height is the before-image of the
 * first block after it that touched it); the embedded engine holds the very
 * document as it holds it, MongoDB a copy. Records written before whole
 * images (MongoDB's, before one contract for both stores) give the old values
 * of the members the block changed (`set`) and the members it added
 * (`unset`) instead: they are still taken back, never written.
 */
export interface UndoStep {
  collection: string;
  id: string;
  doc?: DeepReadonly<Doc> | null;
  /** Member names of a stored document, so whatever store holds the document can hold them here too. */
  set?: Record<string, unknown>;
  unset?: string[];
}

/**
 * The undo steps of a block's changes, in the order the block first wrote each document: its
 * before-images as they are, or with an embedded engine as it holds them (EmbeddedEngine.findHeld),
 * which readers through the Store contract get back as the block read them.
 */
export function undoSteps({ before }: BlockChanges, engine?: Pick<EmbeddedEngine, 'findHeld'>): UndoStep[] {
  if (!engine) return before;
  return before.map(({ collection, id, doc }) => ({ collection, id, doc: doc && engine.findHeld(collection, id) }));
}

/**
 * The writes that take blocks back, newest block first, each unwinding its
 * block in the opposite order it was built. A changed document is rebuilt
 * from its stored state (as the blocks taken back before left it), which is
 * the block's own or, after a commit was interrupted, may still be the one
 * before it: either way the old values put back give the document as it was.
 * Reads only, so the writes can then go into one commit.
 */
export async function restoreWrites(
  store: Pick<LedgerStore, 'collection'>,
  blocksNewestFirst: ReadonlyArray<readonly UndoStep[]>,
): Promise<Write[][]> {
  const restored = new Map<string, Doc | null>();
  const current = async (collection: string, id: string) => {
    const key = `${collection}\u0000${id}`;
    return restored.has(key) ? restored.get(key)! : store.collection(collection).findById(id);
  };
  const writesPerBlock: Write[][] = [];
  for (const steps of blocksNewestFirst) {
    const writes: Write[] = [];
    for (const step of [...steps].reverse()) {
      const doc = step.doc !== undefined ? (step.doc as Doc | null) : patched(await current(step.collection, step.id), step);
      restored.set(`${step.collection}\u0000${step.id}`, doc);
      writes.push({ collection: step.collection, id: step.id, doc });
    }
    writesPerBlock.push(writes);
  }
  return writesPerBlock;
}

/** A document as it was before the block of `step`, from its state after that block. */
export function undone(doc: Doc | null, step: UndoStep): Doc | null {
  return step.doc !== undefined ? step.doc : patched(doc, step);
}

function patched(doc: Doc | null, { collection, id, set = {}, unset = [] }: UndoStep): Doc {
  if (!doc) throw new Error(`cannot revert ${collection} ${id}: the document the block changed is gone`);
  const previous: Doc = { ...doc };
  for (const member of unset) delete previous[member];
  return members(set, Object.keys(set), previous);
}

/** The named members of `source` put on `target`; "__proto__" is defined rather than assigned, so it stays data. */
function members<T extends Record<string, unknown>>(source: Record<string, unknown>, names: string[], target: T): T {
  for (const name of names) {
    if (name === '__proto__') Object.defineProperty(target, name, { value: source[name], enumerable: true, writable: true, configurable: true });
    else (target as Record<string, unknown>)[name] = source[name];
  }
  return target;
}
