import type { Readiness } from '@ledger-api/http';
import { readStoredLedgerState, type ProjectionRunner, type Projector, type SourceBacklog } from '@ledger-api/ledger';
import type { Store } from '@ledger-api/store';
import { readStoredProjectorState } from './projector-record';

export interface ReadinessSubjects {
  store: Store;
  /** Set in a process that runs the projector (ROLE=projector or all). */
  runner?: ProjectionRunner;
  /** Set when that process has a ledger source to follow. */
  projector?: Projector;
  backlog?: SourceBacklog;
  /** READY_MAX_LAG_EVENTS */
  maxLagEvents: number;
}

/** /readyz of a service process: what it checks depends on the role (docs/design.md "Roles"). */
export function readinessCheck(subjects: ReadinessSubjects): () => Promise<Readiness> {
  const { store, runner, projector } = subjects;
  if (!runner) return () => apiReadiness(store);
  if (!projector) {
    return async () => {
      await store.ping();
      return { ready: true };
    };
  }
  return () => projectorReadiness(store, runner, projector, subjects);
}

/**
 * A projector is ready once it has caught up with the stream, and stays so
 * while its consumer holds no more than `maxLagEvents` unhandled events. The
 * body says where it stands, for operators and `npm run ledger:status`.
 */
async function projectorReadiness(
  store: Store,
  runner: ProjectionRunner,
  projector: Projector,
  { backlog, maxLagEvents }: Pick<ReadinessSubjects, 'backlog' | 'maxLagEvents'>,
): Promise<Readiness> {
  const { state, fault } = projector.status();
  // Standing by for the lease, the process serves the store another projector writes.
  if (state === 'standby') return { ...(await apiReadiness(store)), projector: state };
  await store.ping();
  const { position, generation, commitInFlight } = runner.ledgerState;
  const pending = await backlog?.pendingEvents();
  const lagging = pending !== undefined && pending > maxLagEvents;
  return {
    ready: projector.ready() && !lagging,
    projector: state,
    height: position.height,
    blockId: position.blockId,
    generation,
    commitInFlight,
    ...(pending !== undefined && { pending }),
    ...(fault && { fault }),
    ...(lagging && { reason: `${pending} ledger events behind, more than READY_MAX_LAG_EVENTS (${maxLagEvents})` }),
  };
}

/**
 * An api replica serves what the area's projector wrote to the shared store.
 * It is not ready until that projector has caught up with the stream once:
 * before, the read model is still being replayed from empty, and serving it
 * would answer with part of the ledger. Falling behind later keeps it ready:
 * it serves the last consistent state, and the projector's lag is alerted on.
 */
async function apiReadiness(store: Store): Promise<Readiness> {
  await store.ping();
  const [ledger, projector] = await Promise.all([readStoredLedgerState(store), readStoredProjectorState(store)]);
  const ready = projector?.caughtUpAt !== undefined;
  const reason = projector
    ? 'the read model is being replayed from empty; ready once its projector has caught up'
    : 'no projector has written this read model yet';
  return {
    ready,
    height: ledger.position.height,
    generation: ledger.generation,
    ...(projector && { projector: projector.state, ...(projector.fault && { fault: projector.fault }) }),
    ...(!ready && { reason }),
  };
}
