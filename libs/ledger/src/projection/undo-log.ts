import type { Write } from '@ledger-api/store';
import type { LedgerPosition } from '../types';
import type { LedgerStore } from './types';
import { restoreWrites, UNDO_COLLECTION, undoRecordId, type UndoRecord } from './undo';
import { undoTouchWrites } from './undo-touches';
import type { DocumentReader } from './write-set';

/** The runner's undo records: kept for the last `retention` blocks, each stored and dropped with the index of what it touched. */
export class UndoLog {
  constructor(
    private readonly store: LedgerStore,
    private readonly readDocument: DocumentReader,
    private readonly retention: number,
  ) {}

  records() {
    return this.store.collection<UndoRecord>(UNDO_COLLECTION);
  }

  /** An undo record with the index of the documents it touched, stored or (`drop`) removed together. */
  writes(record: UndoRecord, drop = false): Write[] {
    return [{ collection: UNDO_COLLECTION, id: record._id, doc: drop ? null : record }, ...undoTouchWrites(record, drop)];
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
