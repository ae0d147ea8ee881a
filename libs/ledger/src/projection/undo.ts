import { sameJsonValue, type Doc, type Write } from '@ledger-api/store';
import type { LedgerStore } from './types';
import type { BlockChanges } from './write-set';

export const UNDO_COLLECTION = '_undo';

/** Everything needed to take one applied block back. */
export interface UndoRecord extends Doc {
  height: number;
  blockId: string;
  previous: { height: number; blockId: string };
  /** How to take back each document, in the order the block first wrote them (see UndoStep). */
  before: UndoStep[];
}

/** Undo record ids sort like heights. */
export function undoRecordId(height: number): string {
  return String(height).padStart(16, '0');
}

/**
 * How to take one document back to its state before a block, the same in
 * every store. A document the block created goes back to nothing
 * (`doc: null`) and one it deleted comes back whole (`doc`); one it changed
 * gets back the old values of the members it changed (`set`) and loses those
 * it added (`unset`), which is a fraction of the document in nearly every
 * block, and is kept for every block the read model can still revert.
 */
export interface UndoStep {
  collection: string;
  id: string;
  doc?: Doc | null;
  /** Member names of a stored document, so whatever store holds the document can hold them here too. */
  set?: Record<string, unknown>;
  unset?: string[];
}

/** The undo steps of a block's changes, in the order the block first wrote each document. */
export function undoSteps({ before, after }: BlockChanges): UndoStep[] {
  const steps = new Array<UndoStep>(before.length);
  for (let index = 0; index < before.length; index++) {
    const previous = before[index];
    const { collection, id, doc } = previous;
    const next = after[index].doc;
    steps[index] = doc === null || next === null ? previous : { collection, id, ...changedMembers(doc, next) };
  }
  return steps;
}

/** The old values of the members `next` changes or drops, and the members it adds; one pass over each. */
function changedMembers(doc: Doc, next: Doc): Pick<UndoStep, 'set' | 'unset'> {
  let set: Record<string, unknown> | undefined;
  let unset: string[] | undefined;
  for (const member in doc) {
    if (!Object.hasOwn(next, member) || !sameJsonValue(doc[member], next[member])) members(doc, [member], (set ??= {}));
  }
  for (const member in next) if (!Object.hasOwn(doc, member)) (unset ??= []).push(member);
  return { ...(set && { set }), ...(unset && { unset }) };
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
      const doc = step.doc !== undefined ? step.doc : patched(await current(step.collection, step.id), step);
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
