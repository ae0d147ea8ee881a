import type { CollectionSpec } from '@ledger-api/store';
import type { Logger } from '@ledger-api/observability';
import type { LedgerPosition } from '../types';
import type { LedgerStore, Projection } from './types';
import { COMMIT_LOG_SPEC } from './commit-log';
import { POSITION_COLLECTION } from './stored-position';
import { UNDO_COLLECTION } from './undo';
import { UNDO_IMAGES_SPEC } from './undo-images';
import type { ProjectionObserver } from '../observers';

/** The runner's own collections beside the projection's: position, undo records and their steps, commit log. */
export const BOOKKEEPING_COLLECTIONS: CollectionSpec[] = [
  { name: POSITION_COLLECTION, indexes: [] },
  { name: UNDO_COLLECTION, indexes: [{ key: { height: 1 } }] },
  UNDO_IMAGES_SPEC,
  COMMIT_LOG_SPEC,
];

export type PositionListener = (position: LedgerPosition) => void;

export interface ProjectionRunnerOptions {
  store: LedgerStore;
  projection: Projection;
  logger: Logger;
  /** How many of the most recent blocks stay revertible (and verifiable as duplicates). */
  undoRetention?: number;
  /** How many of the most recent commits the read model's commit log keeps (see CommitRecord). */
  commitLogRetention?: number;
  /**
   * Whether the undo steps kept per collection name the ids they take back (undo-images.ts), which
   * point reads at a past height need; on unless turned off (HISTORY_BLOCKS=0).
   */
  indexIds?: boolean;
  /** Told of every event handled, with its outcome and duration. */
  observer?: ProjectionObserver;
  /**
   * Freezes every document a projection reads or puts, so that one changing a
   * document in place fails at once rather than corrupt the store's indexes and
   * undo records. On unless turned off: processes turn it off in production
   * only (NODE_ENV=production), where freezing would cost replay time.
   */
  guardDocuments?: boolean;
}

/** Throws RangeError unless every retention is a positive integer. */
export function checkRetentions(retentions: Record<string, number>): void {
  for (const [name, value] of Object.entries(retentions)) {
    if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer, got ${value}`);
  }
}

/** Who the runner tells of every position it moves to; one listener failing keeps none of the others from hearing. */
export class PositionListeners {
  private readonly listeners = new Set<PositionListener>();

  constructor(private readonly logger: Logger) {}

  /** Returns the unsubscribe function. */
  add(listener: PositionListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  tell(position: LedgerPosition): void {
    for (const listener of this.listeners) {
      try {
        listener(position);
      } catch (error) {
        this.logger.error({ err: error }, 'position listener failed');
      }
    }
  }
}
