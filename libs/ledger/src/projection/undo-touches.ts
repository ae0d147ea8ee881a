import type { CollectionSpec, Doc, Write } from '@ledger-api/store';
import { undoRecordId, type UndoRecord } from './undo';

/**
 * Which documents each kept undo record touched, one entry per (block,
 * document), written and dropped in the commits that write and drop the
 * record. Their index finds the blocks after a height that changed one
 * document, so a read at a past height takes back only those, whichever
 * store holds them (an index over the steps inside the records would be
 * multikey in MongoDB and a scan in the embedded engine).
 */
export const UNDO_TOUCHES_COLLECTION = '_undo_touches';

export const UNDO_TOUCHES_SPEC: CollectionSpec = {
  name: UNDO_TOUCHES_COLLECTION,
  indexes: [{ key: { collection: 1, docId: 1, height: 1 } }],
};

export interface UndoTouch extends Doc {
  collection: string;
  docId: string;
  height: number;
}

function touchId(height: number, collection: string, docId: string): string {
  return `${undoRecordId(height)}\u0000${collection}\u0000${docId}`;
}

/** The entries that store (or, with `drop`, remove) a record's touches. */
export function undoTouchWrites(record: Pick<UndoRecord, 'height' | 'before'>, drop = false): Write[] {
  return record.before.map(({ collection, id: docId }) => {
    const id = touchId(record.height, collection, docId);
    return { collection: UNDO_TOUCHES_COLLECTION, id, doc: drop ? null : { _id: id, collection, docId, height: record.height } };
  });
}
