import type { Write } from '@ledger-api/store';
import type { LedgerPosition } from '../types';
import type { LedgerStore } from './types';
import { restoreWrites, UNDO_COLLECTION, undoRecordId, type UndoRecord } from './undo';
import { undoTouchWrites } from './undo-touches';
import type { DocumentReader } from './write-set';

/**
 * The runner's undo records: kept for the last `retention` blocks, each stored and dropped
 * with the index of what it touched, which reads at a past height need (`indexTouches`; off
 * with HISTORY_BLOCKS=0, when records say they have none).
 */
export class UndoLog {
  constructor(
    private readonly store: LedgerStore,
    private readonly readDocument: DocumentReader,
    private readonly retention: number,
    private readonly indexTouches: boolean,
  ) {}

  records() {
    return this.store.collection<UndoRecord>(UNDO_COLLECTION);
  }

  /** The record as this log keeps it: marked as having no touches when it indexes none. */
  recordOf(record: UndoRecord): UndoRecord {
    return this.indexTouches ? record : { ...record, untouched: true };
  }

  /** An undo record with the index of the documents it touched (if it has one), stored or (`drop`) removed together. */
  writes(record: UndoRecord, drop = false): Write[] {
    const touches = record.untouched ? [] : undoTouchWrites(record, drop);
    return [{ collection: UNDO_COLLECTION, id: record._id, doc: drop ? null : record }, ...touches];
  }

  /** When this log indexes touches: one batch per record kept without them, storing it with its touches. */
  async touchesOfUntouchedRecords(): Promise<Array<() => Write[]>> {
    if (!this.indexTouches) return [];
    const untouched = await this.records().find({ untouched: true });
    return untouched.map(
      ({ untouched: _flag, ...record }) =>
        () =>
          this.writes(record),
    );
  }

  /** The undo record that falls out of the kept window with the block at `height`, and its touches. */
  async pruneWrites(height: number): Promise<Write[]> {
    const expired = height - this.retention;
    const record = expired >= 1 ? await this.readDocument(UNDO_COLLECTION, undoRecordId(expired)) : null;
    return record ? this.writes(record as unknown as UndoRecord, true) : [];
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
  restores(records: UndoRecord[]): Promise<Write[][]> {
    return restoreWrites(
      this.store,
      records.map((record) => record.before),
    );
  }
}
