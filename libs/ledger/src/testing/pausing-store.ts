import type { CollectionSpec, Doc, ReadCollection, Store, Write } from '@ledger-api/store';

/** A batch of writes held in the store until the test lets the writer go on. */
export interface WritePause {
  /** True once a matching batch is applied and its writer is waiting. */
  readonly held: boolean;
  release(): void;
}

class Pause implements WritePause {
  held = false;
  private releaseNow: () => void = () => undefined;
  private readonly released = new Promise<void>((resolve) => (this.releaseNow = resolve));

  constructor(readonly matches: (writes: Write[]) => boolean) {}

  release(): void {
    this.releaseNow();
  }

  async hold(): Promise<void> {
    this.held = true;
    await this.released;
  }
}

/** A batch that writes to this collection. */
export const writesTo = (collection: string) => (writes: Write[]) => writes.some((write) => write.collection === collection);

/**
 * A store that hands everything to the store it wraps, and can hold a writer
 * between two applyWrites calls: the batch is applied, then the call resolves
 * only when the test releases it. Readers go on meanwhile, so a test can read
 * exactly what a block commit leaves between its steps.
 */
export class PausingStore implements Store {
  private pending: Pause[] = [];
  private readonly made: Pause[] = [];

  constructor(private readonly inner: Store) {}

  get kind(): Store['kind'] {
    return this.inner.kind;
  }

  get atomic(): boolean {
    return this.inner.atomic;
  }

  /** Holds the writer of the next batch that `matches`, once that batch is applied. */
  pauseAfter(matches: (writes: Write[]) => boolean): WritePause {
    const pause = new Pause(matches);
    this.pending.push(pause);
    this.made.push(pause);
    return pause;
  }

  /** Lets every writer go and holds no more: a test that failed mid-pause still shuts down. */
  releaseAll(): void {
    this.pending = [];
    for (const pause of this.made) pause.release();
  }

  async applyWrites(writes: Write[]): Promise<void> {
    await this.inner.applyWrites(writes);
    const pause = this.pending.find((each) => each.matches(writes));
    if (!pause) return;
    this.pending = this.pending.filter((each) => each !== pause);
    await pause.hold();
  }

  collection<T extends Doc = Doc>(name: string): ReadCollection<T> {
    return this.inner.collection<T>(name);
  }

  ensureCollections(specs: CollectionSpec[]): Promise<void> {
    return this.inner.ensureCollections(specs);
  }

  /** Runs the commit's steps one by one, so a pause can still fall between two of them. */
  commit(work: () => Promise<void>): Promise<void> {
    return work();
  }

  readConsistently<T>(work: () => Promise<T>): Promise<T> {
    return this.inner.readConsistently(work);
  }

  ping(): Promise<void> {
    return this.inner.ping();
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
