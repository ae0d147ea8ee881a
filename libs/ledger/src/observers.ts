import type { HandleOutcome } from './projection/types';
import type { LedgerSource } from './sources/types';
import type { LedgerEvent, ProjectorStatus } from './types';

/**
 * Told of every event a ProjectionRunner handled (metrics). Called on the
 * consuming path, so it must return at once and never throw.
 */
export interface ProjectionObserver {
  eventHandled(event: LedgerEvent, outcome: HandleOutcome, seconds: number): void;
}

/**
 * Runs `handle` and tells the observer its outcome and how long it took. An
 * event that failed changed nothing; its error reaches the caller instead.
 */
export async function observeHandling(
  observer: ProjectionObserver | undefined,
  event: LedgerEvent,
  handle: () => Promise<HandleOutcome>,
): Promise<HandleOutcome> {
  if (!observer) return handle();
  // A double, unlike hrtime.bigint(): nothing to allocate per event.
  const started = performance.now();
  const outcome = await handle();
  observer.eventHandled(event, outcome, (performance.now() - started) / 1000);
  return outcome;
}

/** Told of every state a Projector enters, with the status it has then. Must return at once and never throw. */
export interface ProjectorObserver {
  stateChanged(status: ProjectorStatus): void;
}

/** What a source can tell of how far its consumer trails the stream it reads. */
export interface SourceBacklog {
  /** Events not handled yet (undelivered, or delivered and not acknowledged); undefined while not consuming. */
  pendingEvents(): Promise<number | undefined>;
  /** Unix time, in seconds, of the newest applied block the stream holds; undefined when it holds none or cannot say. */
  newestBlockTime(): Promise<number | undefined>;
}

export function reportsBacklog(source: LedgerSource): source is LedgerSource & SourceBacklog {
  const candidate = source as Partial<SourceBacklog>;
  return typeof candidate.pendingEvents === 'function' && typeof candidate.newestBlockTime === 'function';
}
