import type { CollectionSpec, Doc, Store, Write } from '@ledger-api/store';
import type { Timestamp } from '../types';

/**
 * The read model's own history of commits, one record per cache generation, written in
 * the commit it describes. Every process that reads the store (an api replica, a gateway
 * asking one) can replay from it what came after a generation it knew, so a live stream
 * resumes from any replica, not only from the process that wrote.
 */
export const COMMIT_LOG_COLLECTION = '_commits';

export const COMMIT_LOG_SPEC: CollectionSpec = { name: COMMIT_LOG_COLLECTION, indexes: [{ key: { generation: 1 } }] };

/** How many of the most recent commits a read model keeps by default. */
export const DEFAULT_COMMIT_LOG_RETENTION = 10_000;

/**
 * `rollback` takes back a commit that was interrupted before its position was stored: no
 * block changes, but the generation moves on, so caches keyed by it must move on too.
 */
export type CommitKind = 'block.applied' | 'block.reverted' | 'rollback';

/** What a commit record says; stored as a CommitRecord. */
export interface CommitEntry {
  /** The generation this commit settled, as the record's sortable id. */
  generation: number;
  kind: CommitKind;
  /**
   * The generation of the newest commit, this one included, that changed the read model's
   * data (see StoredLedgerState). Absent from records written before it was kept: read it
   * as `generation`, as if the commit had changed the data.
   */
  changedAt?: number;
  /** Where the read model stands once the commit is stored. */
  position: { height: number; blockId: string };
  /** The block applied or reverted. */
  block?: { height: number; id: string };
  /** Applied blocks: the block's time, and the ids of the transactions the area projects, in ledger order. */
  timestamp?: Timestamp;
  transactions?: string[];
}

export type CommitRecord = CommitEntry & Doc;

/** Record ids sort like generations. */
export function commitRecordId(generation: number): string {
  return String(generation).padStart(16, '0');
}

/** The writes that store a commit's record and drop the one that fell out of the retained window. */
export function commitLogWrites(record: CommitEntry, retention: number): Write[] {
  const writes: Write[] = [
    { collection: COMMIT_LOG_COLLECTION, id: commitRecordId(record.generation), doc: { _id: commitRecordId(record.generation), ...record } },
  ];
  const expired = record.generation - retention;
  if (expired >= 1) writes.push({ collection: COMMIT_LOG_COLLECTION, id: commitRecordId(expired), doc: null });
  return writes;
}

/**
 * The records after `generation` up to and including `through`, oldest first. Records
 * above `through` may belong to a commit still being written, which readers must not see yet.
 */
export async function readCommitsBetween(store: Pick<Store, 'collection'>, generation: number, through: number): Promise<CommitRecord[]> {
  if (through <= generation) return [];
  return store.collection<CommitRecord>(COMMIT_LOG_COLLECTION).find({ generation: { $gt: generation, $lte: through } }, { sort: { generation: 1 } });
}
