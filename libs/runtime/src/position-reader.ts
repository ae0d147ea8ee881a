import type { ServedLedgerState } from '@ledger-api/http';
import { readStoredPosition, type LedgerPosition, type ProjectionRunner } from '@ledger-api/ledger';
import type { Store } from '@ledger-api/store';

/**
 * Where an api process learns the ledger position its answers come from. The
 * generation is the position itself: a revert brings back the exact earlier
 * state, so pages cached for that earlier position are right again.
 */
export interface PositionReader {
  position(): Promise<LedgerPosition>;
  servedState(): Promise<ServedLedgerState>;
}

function toServedState(position: LedgerPosition): ServedLedgerState {
  return { height: position.height, generation: `${position.height}:${position.blockId}` };
}

/** In a process that runs the projector: the runner's own position, no I/O. */
export function runnerPositionReader(runner: ProjectionRunner): PositionReader {
  return {
    position: async () => runner.position,
    servedState: async () => toServedState(runner.position),
  };
}

/** In an api-only process: the position the projector stored with the data. */
export function storedPositionReader(store: Store): PositionReader {
  const read = () => readStoredPosition(store);
  return { position: read, servedState: async () => toServedState(await read()) };
}
