import { LedgerGapFault } from '../fault';
import type { Block, BlockRef, LedgerPosition } from '../types';
import type { Projection } from './types';
import type { CommitEntry } from './commit-log';
import { undoRecordId, type UndoRecordOfBlock } from './undo';

/** Throws LedgerGapFault unless the block is the one right after the position. */
export function checkFollows(block: Block, position: LedgerPosition): void {
  if (position.height > 0 && block.height !== position.height + 1) {
    throw new LedgerGapFault(`gap: expected height ${position.height + 1} after block ${position.height} (${position.blockId})`, block);
  }
  if (position.height > 0 && block.previousBlock !== position.blockId) {
    const reason = `unknown previous block ${block.previousBlock}: the last applied block is ${position.height} (${position.blockId})`;
    throw new LedgerGapFault(reason, block);
  }
}

/** Throws LedgerGapFault unless the block is the last applied one: only it can be reverted. */
export function checkRevertible(ref: BlockRef, position: LedgerPosition): void {
  if (ref.height !== position.height || ref.id !== position.blockId) {
    throw new LedgerGapFault(`only the last applied block ${position.height} (${position.blockId}) can be reverted`, ref);
  }
}

/** The undo record of a block applied on top of `position`, before the collections its steps are kept for are named. */
export function appliedUndoRecord(block: Block, position: LedgerPosition): UndoRecordOfBlock {
  return {
    _id: undoRecordId(block.height),
    height: block.height,
    blockId: block.id,
    previous: { height: position.height, blockId: position.blockId },
  };
}

/** What the commit log records of an applied block: its transactions the area projects, for the live stream. */
export function appliedCommitEntry(block: Block, projection: Projection): Omit<CommitEntry, 'generation' | 'changedAt'> {
  return {
    kind: 'block.applied',
    position: { height: block.height, blockId: block.id },
    block: { height: block.height, id: block.id },
    timestamp: block.timestamp,
    transactions: block.transactions.filter((tx) => projection.projects(tx)).map((tx) => tx.id),
  };
}

/** The stream sequence a commit stores: one of 0 means "not known" and leaves the stored one in place. */
export function nextStreamSeq(current: LedgerPosition, streamSeq: number): number {
  return Math.max(current.streamSeq, streamSeq);
}
