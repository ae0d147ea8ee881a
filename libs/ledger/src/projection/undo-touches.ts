import type { CollectionSpec, Doc, Write } from '@ledger-api/store';
import { undoRecordId, type UndoRecord } from './undo';

/**
 * Which documents each kept undo record touched, one entry per (block,
 * document), written and dropped in the commits that write and drop the
 * record. Their indexes find the blocks after a height that changed one
 * document, or any document of a collection, so a read at a past height
 * reads only those blocks' records, whichever store holds them (an index over
 * the steps inside the records would be multikey in MongoDB and a scan in the
 * embedded engine). The document is named by one key, which leads the first
 * index: the embedded engine narrows a query by the leading field of an index
 * alone. The second is led by the height, which bounds a collection's touches
 * after a height to the blocks since (MongoDB bounds the document too).
 */
export const UNDO_TOUCHES_COLLECTION = '_undo_touches';

export const UNDO_TOUCHES_SPEC: CollectionSpec = {
  name: UNDO_TOUCHES_COLLECTION,
  indexes: [{ key: { document: 1, height: 1 } }, { key: { height: 1, document: 1 } }],
};

export interface UndoTouch extends Doc {
  /** The document touched, as touchedDocument names it. */
  document: string;
  height: number;
}

/** One key for a document of a collection. */
export function touchedDocument(collection: string, docId: string): string {
  return `${collection}\u0000${docId}`;
}

/** The condition on touches of any document of a collection: the keys that start with its name. */
export function touchesOfCollection(collection: string): { document: { $gt: string; $lt: string } } {
  return { document: { $gt: `${collection}\u0000`, $lt: `${collection}\u0001` } };
}

/** The entries that store (or, with `drop`, remove) a record's touches. */
export function undoTouchWrites(record: Pick<UndoRecord, 'height' | 'before'>, drop = false): Write[] {
  return record.before.map(({ collection, id: docId }) => {
    const document = touchedDocument(collection, docId);
    const id = `${undoRecordId(record.height)}\u0000${document}`;
    return { collection: UNDO_TOUCHES_COLLECTION, id, doc: drop ? null : { _id: id, document, height: record.height } };
  });
}
