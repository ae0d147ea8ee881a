import { hostname } from 'node:os';
import type { ProjectorObserver, ProjectorState, ProjectorStatus } from '@ledger-api/ledger';
import type { Logger } from '@ledger-api/observability';
import type { Store } from '@ledger-api/store';

/** The projector's states as metrics, the stored record and `npm run ledger:status` name them. */
export const REPORTED_STATES = ['replaying', 'caught_up', 'standby', 'faulted'] as const;
export type ReportedState = (typeof REPORTED_STATES)[number];

const REPORTED: Partial<Record<ProjectorState, ReportedState>> = {
  'catching-up': 'replaying',
  'caught-up': 'caught_up',
  standby: 'standby',
  faulted: 'faulted',
};

/** Starting (loading the read model) and stopped are none of the reported states. */
export function reportedState(state: ProjectorState): ReportedState | undefined {
  return REPORTED[state];
}

/** Beside the read model, apart from the collections the runner owns. */
export const PROJECTOR_COLLECTION = '_projector';
const RECORD_ID = 'projector';

/** What the projector writing a read model last said of itself, stored with that read model. */
export interface StoredProjectorState {
  state: Exclude<ReportedState, 'standby'>;
  fault?: string;
  /** The process that wrote it: `<host>-<pid>`. */
  reportedBy: string;
  updatedAt: string;
  /**
   * When the read model first caught up with the stream. Unset while it is
   * being replayed from empty; kept by every later write, so a projector that
   * falls behind again does not make it unset.
   */
  caughtUpAt?: string;
}

export async function readStoredProjectorState(store: Pick<Store, 'collection'>): Promise<StoredProjectorState | undefined> {
  const stored = await store.collection(PROJECTOR_COLLECTION).findById(RECORD_ID);
  if (!stored) return undefined;
  const { _id: _, ...state } = stored;
  return state as unknown as StoredProjectorState;
}

/**
 * Stores every state the projector enters while it writes the read model; a
 * projector standing by for the lease writes nothing, so the record is always
 * the writer's. api replicas sharing the store read it to tell a read model
 * still replayed from empty from one that has caught up (see apiReadiness).
 */
export class ProjectorStateRecorder implements ProjectorObserver {
  private writes: Promise<void> = Promise.resolve();
  private readonly reportedBy = `${hostname()}-${process.pid}`;

  constructor(
    private readonly store: Store,
    private readonly logger: Logger,
  ) {}

  stateChanged({ state, fault }: ProjectorStatus): void {
    const reported = reportedState(state);
    if (reported === undefined || reported === 'standby') return;
    // In order, one at a time: a later state never lands before an earlier one.
    this.writes = this.writes
      .then(() => this.record(reported, fault))
      .catch((error: unknown) => this.logger.warn({ err: error, state: reported }, 'projector state not stored'));
  }

  /** Resolves once every state reported so far is stored, or failed to be. */
  settled(): Promise<void> {
    return this.writes;
  }

  private async record(state: StoredProjectorState['state'], fault: string | undefined): Promise<void> {
    const now = new Date().toISOString();
    // Read each time: another projector may have held the lease (and caught up) since this one last wrote.
    const caughtUpAt = (await readStoredProjectorState(this.store))?.caughtUpAt ?? (state === 'caught_up' ? now : undefined);
    const record: StoredProjectorState = {
      state,
      reportedBy: this.reportedBy,
      updatedAt: now,
      ...(fault && { fault }),
      ...(caughtUpAt && { caughtUpAt }),
    };
    await this.store.applyWrites([{ collection: PROJECTOR_COLLECTION, id: RECORD_ID, doc: { _id: RECORD_ID, ...record } }]);
  }
}
