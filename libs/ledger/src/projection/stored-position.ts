import { randomBytes } from 'node:crypto';
import type { Store, Write } from '@ledger-api/store';
import { EMPTY_POSITION, type LedgerPosition } from '../types';

/** The projector's bookkeeping collection; the position is one document in it. */
export const POSITION_COLLECTION = '_ledger';
const POSITION_ID = 'position';

/**
 * The position document: the position, and the cache generation of the read
 * model. The generation is bumped after the last write of every block commit
 * (applied, reverted, or rolled back after a crash) and never goes back, so a
 * page cached for one state is never served for another; `commitInFlight` is
 * set before a commit's first write, while the data may be half old, half new.
 *
 * `changedAt` is the generation of the newest commit that changed the read model's data
 * (a block with no write for the area, or the revert of one, leaves it where it was): a
 * page read at any commit since holds until the data changes again, so caches key
 * such pages by it instead of by the generation. Like the generation it never goes back:
 * a revert that changes data takes the revert's own generation, never an earlier one.
 *
 * `readModel` names this read model: chosen once when its store is first filled, it
 * tells generations of two read models apart (an embedded store replayed after a
 * restart, a rebuild into a new database), whose counters both start at 0.
 *
 * `fence` is the newest lease token a writer claimed the read model with (see HeldLease):
 * a writer holding an older one may no longer commit. 0 while no lease was ever used.
 */
export interface StoredLedgerState {
  position: LedgerPosition;
  generation: number;
  changedAt: number;
  commitInFlight: boolean;
  readModel: string;
  fence: number;
}

export const EMPTY_LEDGER_STATE: StoredLedgerState = {
  position: EMPTY_POSITION,
  generation: 0,
  changedAt: 0,
  commitInFlight: false,
  readModel: '',
  fence: 0,
};

/** A new read model's name: short, random, and free of the `-` that separates it from the generation in a commit id. */
export function newReadModelName(): string {
  return randomBytes(9).toString('base64url').replace(/-/g, '_');
}

/** The whole position document in one read: what an api process keys and guards its page cache with. */
export async function readStoredLedgerState(store: Pick<Store, 'collection'>): Promise<StoredLedgerState> {
  const stored = await store.collection(POSITION_COLLECTION).findById(POSITION_ID);
  if (!stored) return EMPTY_LEDGER_STATE;
  // A document stored before generations existed counts as generation 0, settled.
  const generation = Number(stored.generation ?? 0);
  return {
    position: { height: Number(stored.height), blockId: String(stored.blockId), streamSeq: Number(stored.streamSeq) },
    generation,
    // Stored before data changes were told apart: every commit up to the last counts as one that changed the data.
    changedAt: Number(stored.changedAt ?? generation),
    commitInFlight: stored.commitInFlight === true,
    readModel: typeof stored.readModel === 'string' ? stored.readModel : '',
    fence: Number(stored.fence ?? 0),
  };
}

/** The write that stores the position document, committed in the same batch as the data it describes. */
export function storedLedgerStateWrite({ position, generation, changedAt, commitInFlight, readModel, fence }: StoredLedgerState): Write {
  const doc = { _id: POSITION_ID, ...position, generation, changedAt, commitInFlight, readModel, fence };
  return { collection: POSITION_COLLECTION, id: POSITION_ID, doc };
}
