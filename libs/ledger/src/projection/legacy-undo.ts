import type { Doc, Write } from '@ledger-api/store';
import type { LedgerStore } from './types';
import { UNDO_COLLECTION, type UndoRecord, type UndoRecordOfBlock, type UndoStep } from './undo';
import { undoImagesOf, undoImagesWrites } from './undo-images';

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
  const records = legacy.map(({ before, untouched: _untouched, ...record }) => () => {
    const images = undoImagesOf(record.height, before, withIds);
    const migrated: UndoRecord = {
      _id: record._id,
      height: record.height,
      blockId: record.blockId,
      previous: record.previous,
      collections: images.map((entry) => entry.collection),
    };
    return [...undoImagesWrites(images), { collection: UNDO_COLLECTION, id: migrated._id, doc: migrated }];
  });
  const dropTouches = () => touches.map(({ _id }) => ({ collection: LEGACY_TOUCHES_COLLECTION, id: _id, doc: null }));
  return touches.length > 0 ? [...records, dropTouches] : records;
}
