import { formatCommitId, type ServedLedgerState } from '@ledger-api/http';
import { readStoredLedgerState, type LedgerPosition, type ProjectionRunner, type StoredLedgerState } from '@ledger-api/ledger';
import type { Store } from '@ledger-api/store';

/**
 * Where an api process learns the ledger position its answers come from, and
 * the cache generation of the state it reads (see StoredLedgerState).
 */
export interface PositionReader {
  position(): Promise<LedgerPosition>;
  servedState(): Promise<ServedLedgerState>;
}

/**
 * The generation counter alone tells states apart while one read model lives; its
 * name keeps keys apart when the counter starts again (an embedded store replayed
 * after a restart, a rebuild into a new database, sharing a Redis with old pages).
 */
function toServedState({ position, generation, changedAt, commitInFlight, readModel }: StoredLedgerState): ServedLedgerState {
  return {
    height: position.height,
    blockId: position.blockId,
    commit: formatCommitId({ readModel, generation, changedAt }),
    dataCommit: formatCommitId({ readModel, generation: changedAt }),
    commitInFlight,
  };
}

/** In a process that runs the projector: the runner's own state, no I/O. */
export function runnerPositionReader(runner: ProjectionRunner): PositionReader {
  return {
    position: async () => runner.position,
    servedState: async () => toServedState(runner.ledgerState),
  };
}

/** In an api-only process: the position document the projector stores with the data, one read per call. */
export function storedPositionReader(store: Store): PositionReader {
  const read = () => readStoredLedgerState(store);
  return { position: async () => (await read()).position, servedState: async () => toServedState(await read()) };
}
