import type { HandleOutcome, LedgerEvent, ProjectionObserver, ProjectionRunner, Projector, SourceBacklog } from '@ledger-api/ledger';
import type { Metrics } from '@ledger-api/observability';
import { REPORTED_STATES, reportedState } from './projector-record';

const OUTCOMES: HandleOutcome[] = ['applied', 'reverted', 'duplicate'];
/** From a block with a few writes on the embedded store to a large one on a remote MongoDB. */
const APPLY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

/**
 * Scrapes and readiness probes ask at the same moments; while one read is in
 * flight the others share its answer, so the broker gets one request.
 */
export function sharedBacklog(source: SourceBacklog): SourceBacklog {
  const share = <T>(read: () => Promise<T>) => {
    let inFlight: Promise<T> | undefined;
    return () => (inFlight ??= read().finally(() => (inFlight = undefined)));
  };
  return { pendingEvents: share(() => source.pendingEvents()), newestBlockTime: share(() => source.newestBlockTime()) };
}

/**
 * The ledger metrics of a process that runs a projector. Counts and durations
 * come from the runner as it handles events; the projector's state and its
 * consumer's backlog are read when scraped, so they are never stale.
 */
export class LedgerMetrics implements ProjectionObserver {
  /** Each outcome's own counter, so counting an event looks up no labels. */
  private readonly blocks: Record<HandleOutcome, { inc(): void }>;
  private readonly applyDuration;
  /** Reverts carry no timestamp, so after one this stays at the reverted block's time: at most one block off. */
  private lastAppliedBlockTime: number | undefined;

  constructor(private readonly metrics: Metrics) {
    const blocks = metrics.counter('ledger_blocks_total', 'Ledger events handled, by outcome (duplicate: already applied, changed nothing)', [
      'outcome',
    ]);
    // Every outcome is exported from the start, so rates over it are defined before the first revert.
    for (const outcome of OUTCOMES) blocks.inc({ outcome }, 0);
    this.blocks = {
      applied: blocks.labels({ outcome: 'applied' }),
      reverted: blocks.labels({ outcome: 'reverted' }),
      duplicate: blocks.labels({ outcome: 'duplicate' }),
    };
    this.applyDuration = metrics
      .histogram('ledger_block_apply_duration_seconds', 'Time to apply one block to the read model', [], APPLY_BUCKETS)
      .labels({});
  }

  eventHandled(event: LedgerEvent, outcome: HandleOutcome, seconds: number): void {
    this.blocks[outcome].inc();
    if (outcome !== 'applied' || event.event !== 'block.applied') return;
    this.applyDuration.observe(seconds);
    this.lastAppliedBlockTime = event.block.timestamp.unix;
  }

  /** Registers the gauges of the running projector; those of the backlog only when its source reports one. */
  follow(runner: ProjectionRunner, projector: Projector | undefined, backlog: SourceBacklog | undefined): void {
    // Read when scraped rather than set on every block.
    this.metrics.gauge('ledger_block_height', 'Height of the last applied ledger block', [], (gauge) => gauge.set(runner.position.height));
    if (!projector) return;
    this.metrics.gauge('ledger_projector_state', 'The projector state: 1 for the current one, 0 for the others', ['state'], (gauge) => {
      const current = reportedState(projector.status().state);
      for (const state of REPORTED_STATES) gauge.set({ state }, state === current ? 1 : 0);
    });
    if (!backlog) return;
    // NaN while unknown: a projector standing by reads no consumer.
    this.metrics.gauge('ledger_consumer_pending_events', 'Ledger events the consumer holds not handled yet', [], async (gauge) => {
      gauge.set((await backlog.pendingEvents()) ?? NaN);
    });
    this.metrics.gauge(
      'ledger_lag_seconds',
      'Seconds between the newest block in the stream and the last one applied (block timestamps)',
      [],
      async (gauge) => {
        gauge.set(await this.lagSeconds(backlog));
      },
    );
  }

  private async lagSeconds(backlog: SourceBacklog): Promise<number> {
    const pending = await backlog.pendingEvents();
    if (pending === 0) return 0;
    const newest = pending === undefined ? undefined : await backlog.newestBlockTime();
    if (newest === undefined || this.lastAppliedBlockTime === undefined) return NaN;
    return Math.max(0, newest - this.lastAppliedBlockTime);
  }
}
