import { setTimeout as delay } from 'node:timers/promises';
import type { Logger } from '@ledger-api/observability';
import { DeliveryInterrupted, LedgerFault, LedgerGapFault } from './fault';
import { FencedOut, type ProjectorLease } from './lease/types';
import type { ProjectorObserver } from './observers';
import type { ProjectionRunner } from './projection/runner';
import type { LedgerSource } from './sources/types';
import type { LedgerEvent, LedgerPosition, ProjectorState, ProjectorStatus } from './types';

export interface ProjectorOptions {
  runner: ProjectionRunner;
  source: LedgerSource;
  logger: Logger;
  /** Taken before consuming when the read model (and its durable consumer) is shared with other projectors. */
  lease?: ProjectorLease;
  /** How often the source is asked whether everything has been handled, until it has. */
  caughtUpPollMs?: number;
  /** First wait before consuming again after a transient failure; doubles up to maxRetryDelayMs. */
  retryDelayMs?: number;
  maxRetryDelayMs?: number;
  /** Told of every state entered: metrics, and the state stored for api replicas and operators. */
  observer?: ProjectorObserver;
}

/**
 * The single writer of an area's read model: feeds the source's events to the
 * runner in order. A LedgerFault stops it for good (an operator has to look);
 * any other failure, such as the store or NATS being unreachable, is retried.
 * A gap in what was delivered is not yet a gap in the ledger: the source is
 * read again from the stored position, and only a gap still there with no
 * progress since is a fault.
 * Once it has caught up with the source it stays 'caught-up' while following
 * new events.
 * With a lease it consumes only while holding it: until then (and after losing
 * it) it stands by, and on taking it over it reloads the read model, which the
 * previous holder has moved on.
 */
export class Projector {
  private readonly runner: ProjectionRunner;
  private readonly source: LedgerSource;
  private readonly lease: ProjectorLease | undefined;
  private readonly logger: Logger;
  private readonly caughtUpPollMs: number;
  private readonly retryDelayMs: number;
  private readonly maxRetryDelayMs: number;
  private readonly observer: ProjectorObserver | undefined;
  private current: ProjectorState = 'starting';
  private fault: string | undefined;
  private nextRetryDelayMs: number;
  private halt = new AbortController();
  private consuming: Promise<void> | undefined;
  /** The position the last read after a gap started from. */
  private gapReadFrom: LedgerPosition | undefined;

  constructor({ runner, source, lease, logger, caughtUpPollMs = 500, retryDelayMs = 1_000, maxRetryDelayMs = 30_000, observer }: ProjectorOptions) {
    this.runner = runner;
    this.observer = observer;
    this.source = source;
    this.lease = lease;
    this.logger = logger;
    this.caughtUpPollMs = caughtUpPollMs;
    this.retryDelayMs = retryDelayMs;
    this.maxRetryDelayMs = maxRetryDelayMs;
    this.nextRetryDelayMs = retryDelayMs;
  }

  /** Resolves once the read model is loaded and consuming has begun; catching up continues in the background. */
  async start(): Promise<void> {
    if (this.consuming) throw new Error('Projector is already started');
    this.fault = undefined;
    this.state = 'starting';
    this.gapReadFrom = undefined;
    this.halt = new AbortController();
    await this.runner.init();
    this.logger.info({ position: this.runner.position }, 'projector starting');
    this.consuming = this.consume();
  }

  /** Finishes the event in hand; nothing that was not stored is acknowledged. */
  async stop(): Promise<void> {
    this.halt.abort();
    await this.source.stop();
    await this.consuming;
    this.consuming = undefined;
    await this.lease?.release();
    this.state = 'stopped';
    this.logger.info({ position: this.runner.position }, 'projector stopped');
  }

  private get state(): ProjectorState {
    return this.current;
  }

  /** Every transition goes through here, so the observer misses none. */
  private set state(state: ProjectorState) {
    this.current = state;
    this.observer?.stateChanged(this.status());
  }

  status(): ProjectorStatus {
    const status: ProjectorStatus = { state: this.state, position: this.runner.position };
    if (this.fault !== undefined) status.fault = this.fault;
    return status;
  }

  ready(): boolean {
    return this.state === 'caught-up';
  }

  private async consume(): Promise<void> {
    if (!this.lease) return this.follow(this.halt.signal);
    while (!this.halt.signal.aborted) {
      this.state = 'standby';
      const held = await this.lease.acquire(this.halt.signal);
      if (!held) return;
      await this.follow(AbortSignal.any([this.halt.signal, held.lost]), held.token);
      if (this.halt.signal.aborted || !held.lost.aborted) return;
      this.logger.warn({ position: this.runner.position }, 'projector lease lost; standing by');
    }
  }

  /**
   * Consumes until `until` fires, the source ends, or a fault. Under a lease (`token`) the read
   * model is claimed with the lease's token and reloaded first: the previous holder moved it on.
   */
  private async follow(until: AbortSignal, token?: number): Promise<void> {
    // stop() stops the source itself; a lost lease must stop it from here. Stopping it twice at once can hang its close.
    const stopSource = () => {
      if (!this.halt.signal.aborted) void this.source.stop();
    };
    until.addEventListener('abort', stopSource, { once: true });
    this.state = 'catching-up';
    this.runner.catchingUp();
    void this.watchCatchUp();
    try {
      await this.followSource(until, token);
    } finally {
      until.removeEventListener('abort', stopSource);
    }
  }

  private async followSource(until: AbortSignal, token: number | undefined): Promise<void> {
    let loaded = token === undefined;
    while (!until.aborted) {
      try {
        if (!loaded) await this.runner.claim(token as number);
        loaded = true;
        // A stop asked for before run() would be forgotten by it.
        if (until.aborted) return;
        await this.source.run((event, streamSeq, text) => this.handle(event, streamSeq, text), this.runner.position);
        return;
      } catch (error) {
        if (until.aborted) return;
        if (error instanceof FencedOut) return this.fencedOut(error);
        if (this.readsAgain(error)) continue;
        if (error instanceof LedgerFault) return this.faulted(error);
        this.logger.error({ err: error, retryInMs: this.nextRetryDelayMs }, 'ledger consumer failed; retrying');
        await this.pause(this.nextRetryDelayMs, until);
        this.nextRetryDelayMs = Math.min(this.nextRetryDelayMs * 2, this.maxRetryDelayMs);
      }
    }
  }

  /** Whether the failure calls for reading again from the stored position rather than a fault or a retry later. */
  private readsAgain(error: unknown): boolean {
    const position = this.runner.position;
    if (error instanceof DeliveryInterrupted) {
      this.logger.warn({ reason: error.message, position }, 'ledger delivery interrupted; reading again from the stored position');
      return true;
    }
    if (!(error instanceof LedgerGapFault)) return false;
    if (this.gapReadFrom && samePosition(this.gapReadFrom, position)) return false;
    this.gapReadFrom = position;
    this.logger.warn({ block: error.block, reason: error.reason, position }, 'gap in the delivered events; reading again from the stored position');
    return true;
  }

  private async handle(event: LedgerEvent, streamSeq: number, text: string | undefined): Promise<void> {
    await this.runner.handle(event, streamSeq, text);
    this.nextRetryDelayMs = this.retryDelayMs;
  }

  /** A later holder claimed the read model while this one stalled: nothing more is written, and the lease goes. */
  private async fencedOut(error: FencedOut): Promise<void> {
    this.logger.warn({ reason: error.message, position: this.runner.position }, 'projector fenced out by a later lease holder; standing by');
    // Releasing ends the hold, which stops the source and makes consume() stand by again.
    await this.lease?.release();
  }

  private async faulted(fault: LedgerFault): Promise<void> {
    this.fault = fault.message;
    this.state = 'faulted';
    this.logger.error({ block: fault.block, reason: fault.reason, position: this.runner.position }, 'ledger fault: consuming stopped');
    await this.source.stop();
  }

  private async watchCatchUp(): Promise<void> {
    while (this.state === 'catching-up' && !this.halt.signal.aborted) {
      const caughtUp = await this.source.caughtUp().catch(() => false);
      if (caughtUp && this.state === 'catching-up') {
        // Before 'caught-up' lets the API read it.
        this.runner.caughtUp();
        this.state = 'caught-up';
        this.logger.info({ position: this.runner.position }, 'projector caught up');
        return;
      }
      await this.pause(this.caughtUpPollMs);
    }
  }

  /** Waits, or returns early when the projector is stopped (or `signal` fires). */
  private async pause(ms: number, signal = this.halt.signal): Promise<void> {
    await delay(ms, undefined, { signal }).catch(() => undefined);
  }
}

function samePosition(a: LedgerPosition, b: LedgerPosition): boolean {
  return a.height === b.height && a.blockId === b.blockId && a.streamSeq === b.streamSeq;
}
