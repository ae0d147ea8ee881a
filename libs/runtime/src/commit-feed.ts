import { readCommitsBetween, readStoredLedgerState, type CommitRecord, type ProjectionRunner, type StoredLedgerState } from '@ledger-api/ledger';
import type { Logger } from '@ledger-api/observability';
import type { Store } from '@ledger-api/store';

/** Where the feed stands: the newest settled commit it has announced. */
export interface AnnouncedCommit {
  readModel: string;
  generation: number;
  /** The generation of the newest commit that changed the area's data (see StoredLedgerState). */
  changedAt: number;
  position: { height: number; blockId: string };
}

/** Told of each commit in order; `reset` when the feed cannot say what came between (another read model, a gap past the log). */
export type CommitListener = (change: { kind: 'commit'; record: CommitRecord } | { kind: 'reset' }) => void;

export interface CommitFeedOptions {
  store: Pick<Store, 'collection'>;
  /** In a process that writes the read model: told of each commit at once instead of at the next poll. */
  runner?: Pick<ProjectionRunner, 'onChange' | 'ledgerState'>;
  /** How often the stored position is read for commits made by another process. */
  pollMs: number;
  logger: Logger;
}

/**
 * The commits of one read model, announced once they are stored, in order. It reads the
 * position document and the commit log of the store, so it works alike in the process
 * that writes (woken by its runner) and in an api replica of a shared store (polling).
 */
export class CommitFeed {
  private readonly listeners = new Set<CommitListener>();
  private state: AnnouncedCommit = { readModel: '', generation: 0, changedAt: 0, position: { height: 0, blockId: '' } };
  private timer: NodeJS.Timeout | undefined;
  private unsubscribeRunner: (() => void) | undefined;
  private reading: Promise<void> | undefined;
  private readAgain = false;

  constructor(private readonly options: CommitFeedOptions) {}

  async start(): Promise<void> {
    this.state = announcedCommitOf(await readStoredLedgerState(this.options.store));
    this.unsubscribeRunner = this.options.runner?.onChange(() => this.followRunner());
    this.timer = setInterval(() => this.wake(), this.options.pollMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.unsubscribeRunner?.();
    this.listeners.clear();
  }

  current(): AnnouncedCommit {
    return this.state;
  }

  subscribe(listener: CommitListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The records after `generation` up to the announced one, oldest first; undefined when the log no longer holds them all. */
  recordsAfter(generation: number): Promise<CommitRecord[] | undefined> {
    return this.recordsBetween(generation, this.state.generation);
  }

  /** Every record after `after` through `through`, or undefined when the log no longer holds them all. */
  private async recordsBetween(after: number, through: number): Promise<CommitRecord[] | undefined> {
    const records = await readCommitsBetween(this.options.store, after, through);
    return records.length === through - after ? records : undefined;
  }

  /**
   * Nobody to tell (a replay, which no live stream follows): the state moves on to
   * the runner's own, with no read of the store, as it does on every block.
   */
  private followRunner(): void {
    const runner = this.options.runner;
    if (this.listeners.size === 0 && !this.reading && runner) this.state = announcedCommitOf(runner.ledgerState);
    else this.wake();
  }

  /** Reads what was committed since the last read; a wake-up during a read makes one more read after it. */
  private wake(): void {
    if (this.reading) {
      this.readAgain = true;
      return;
    }
    this.reading = this.readNewCommits()
      .catch((error: unknown) => this.options.logger.warn({ err: error }, 'commit feed could not read the store'))
      .finally(() => {
        this.reading = undefined;
        if (this.readAgain) {
          this.readAgain = false;
          this.wake();
        }
      });
  }

  private async readNewCommits(): Promise<void> {
    const stored = await readStoredLedgerState(this.options.store);
    const known = this.state;
    if (stored.readModel === known.readModel && stored.generation <= known.generation) return;
    const next = announcedCommitOf(stored);
    if (this.listeners.size === 0) {
      // Nobody to tell (a replay, which no live stream follows): the state moves on without reading the log.
      this.state = next;
      return;
    }
    const records = stored.readModel === known.readModel ? await this.recordsBetween(known.generation, stored.generation) : undefined;
    if (!records) {
      this.state = next;
      this.announce({ kind: 'reset' });
      return;
    }
    for (const record of records) {
      const changedAt = record.changedAt ?? record.generation;
      this.state = { readModel: stored.readModel, generation: record.generation, changedAt, position: record.position };
      this.announce({ kind: 'commit', record });
    }
  }

  private announce(change: Parameters<CommitListener>[0]): void {
    for (const listener of this.listeners) {
      try {
        listener(change);
      } catch (error) {
        this.options.logger.error({ err: error }, 'commit feed listener failed');
      }
    }
  }
}

function announcedCommitOf({ readModel, generation, changedAt, position: { height, blockId } }: StoredLedgerState): AnnouncedCommit {
  return { readModel, generation, changedAt, position: { height, blockId } };
}
