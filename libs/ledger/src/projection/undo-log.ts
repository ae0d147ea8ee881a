import { findByIds, type Write } from '@ledger-api/store';
import type { LedgerPosition } from '../types';
import type { LedgerStore } from './types';
import { restoreWrites, UNDO_COLLECTION, undoRecordId, type UndoRecord, type UndoRecordOfBlock, type UndoStep } from './undo';
import {
  stepsOfImages,
  UNDO_IMAGES_COLLECTION,
  undoImagesDrops,
  undoImagesId,
  recordWithImages,
  undoImagesWrites,
  withIds,
  type UndoImages,
} from './undo-images';
import type { DocumentReader } from './write-set';
import { legacyUndoMigration } from './legacy-undo';

/**
 * The runner's undo records, kept for the last `retention` blocks, each with
 * its steps stored per collection beside it (undo-images.ts). Those name the
 * ids they take back for reads at a past height (`indexIds`; off with
 * HISTORY_BLOCKS=0).
 *
 * A record is written before its entries and dropped after them, so in a
 * store without transactions an interrupted commit leaves either a record
 * whose missing entries are dropped with it, or entries whose record still
 * names them; never an entry no record names.
 */
export class UndoLog {
  constructor(
    private readonly store: LedgerStore,
    private readonly readDocument: DocumentReader,
    private readonly retention: number,
    private readonly indexIds: boolean,
  ) {}

  records() {
    return this.store.collection<UndoRecord>(UNDO_COLLECTION);
  }

  /** The writes that store an applied block's undo record and its steps, the record first. */
  applyWrites(block: UndoRecordOfBlock, steps: readonly UndoStep[]): Write[] {
    const { record, images } = recordWithImages(block, steps, this.indexIds);
    return [{ collection: UNDO_COLLECTION, id: record._id, doc: record }, ...undoImagesWrites(images)];
  }

  /** The writes that remove a record and its steps. */
  dropWrites(record: UndoRecord): Write[] {
    return [...undoImagesDrops(record.height, record.collections), { collection: UNDO_COLLECTION, id: record._id, doc: null }];
  }

  /**
   * The batches that bring the kept records to this log's form: those of the earlier form
   * (legacy-undo.ts), and with history kept, the entries kept without ids (under
   * HISTORY_BLOCKS=0), which get them so that a read at a past height misses none of their changes.
   */
  async bringUpToForm(): Promise<Array<() => Write[]>> {
    const legacy = await legacyUndoMigration(this.store, this.indexIds);
    if (!this.indexIds) return legacy;
    const bare = await this.store.collection<UndoImages>(UNDO_IMAGES_COLLECTION).find({ ids: { $exists: false } });
    return [...legacy, ...bare.map((entry) => () => undoImagesWrites([withIds(entry)]))];
  }

  /** The undo record that falls out of the kept window with the block at `height`, and its steps. */
  async pruneWrites(height: number): Promise<Write[]> {
    const expired = height - this.retention;
    const record = expired >= 1 ? await this.readDocument(UNDO_COLLECTION, undoRecordId(expired)) : null;
    return record ? this.dropWrites(record as unknown as UndoRecord) : [];
  }

  /** The id of the block applied at `height` at or below `current`, while its undo record is kept. */
  async blockIdAt(height: number, current: LedgerPosition): Promise<string | undefined> {
    if (height === current.height) return current.blockId;
    if (height <= current.height - this.retention) return undefined;
    const record = await this.records().findById(undoRecordId(height));
    return record?.blockId;
  }

  /** Undo records above the stored position, newest first: commits interrupted before their position was stored. */
  async interruptedAbove(height: number): Promise<UndoRecord[]> {
    const interrupted = await this.records().find({ height: { $gt: height } });
    return interrupted.sort((a, b) => b.height - a.height);
  }

  /** The writes that take the read model back through each record, one batch per record. */
  async restores(records: UndoRecord[]): Promise<Write[][]> {
    const ids = records.flatMap(({ height, collections }) => collections.map((collection) => undoImagesId(height, collection)));
    const entries = await findByIds(this.store.collection<UndoImages>(UNDO_IMAGES_COLLECTION), ids);
    const stepsOf = ({ height, collections }: UndoRecord) =>
      stepsOfImages(collections.flatMap((collection) => entries.get(undoImagesId(height, collection)) ?? []));
    return restoreWrites(this.store, records.map(stepsOf));
  }
}
