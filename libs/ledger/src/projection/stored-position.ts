import type { Store, Write } from '@ledger-api/store';
import { EMPTY_POSITION, type LedgerPosition } from '../types';

/** The projector's bookkeeping collection; the position is one document in it. */
export const POSITION_COLLECTION = '_ledger';
const POSITION_ID = 'position';

/**
 * The position the projector stored with the data it describes (EMPTY_POSITION before
 * the first block): where the projector resumes, and what an api process reports.
 */
export async function readStoredPosition(store: Pick<Store, 'collection'>): Promise<LedgerPosition> {
  const stored = await store.collection(POSITION_COLLECTION).findById(POSITION_ID);
  return stored ? { height: Number(stored.height), blockId: String(stored.blockId), streamSeq: Number(stored.streamSeq) } : EMPTY_POSITION;
}

/** The write that stores a position, committed in the same batch as the data it describes. */
export function storedPositionWrite(position: LedgerPosition): Write {
  return { collection: POSITION_COLLECTION, id: POSITION_ID, doc: { _id: POSITION_ID, ...position } };
}
