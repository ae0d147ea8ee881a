import type { Doc, Write } from '@ledger-api/store';
import type { LedgerStore } from './types';
import { UNDO_COLLECTION, type UndoRecordOfBlock, type UndoStep } from './undo';
import { recordWithImages, undoImagesWrites } from './undo-images';

/** Undo records written before their steps were kept per collection: the steps inside, with an entry per document touched. */
interface LegacyUndoRecord extends Doc, UndoRecordOfBlock {
  before: UndoStep[];
  untouched?: true;
}

const LEGACY_TOUCHES_COLLECTION = '_undo_touches';

/**
 * The batches that bring undo records written in the earlier form to the
 * present one: per record, its steps as entries per collection first, then
 * the record without them (so an interrupted migration leaves the record
 * whole, and runs again); then the entries of the documents they touched go.
 */
export async function legacyUndoMigration(store: LedgerStore, withIds: boolean): Promise<Array<() => Write[]>> {
  const legacy = await store.collection<LegacyUndoRecord>(UNDO_COLLECTION).find({ before: { $exists: true } });
  const touches = await store.collection(LEGACY_TOUCHES_COLLECTION).find({});
  const records = legacy.map((earlier) => () => {
    const { record, images } = recordWithImages(earlier, earlier.before, withIds);
    return [...undoImagesWrites(images), { collection: UNDO_COLLECTION, id: record._id, doc: record }];
  });
  const dropTouches = () => touches.map(({ _id }) => ({ collection: LEGACY_TOUCHES_COLLECTION, id: _id, doc: null }));
  return touches.length > 0 ? [...records, dropTouches] : records;
}
