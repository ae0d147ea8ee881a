import type { StoredLedgerState } from './stored-position';

type Generations = Pick<StoredLedgerState, 'generation' | 'changedAt' | 'commitInFlight'>;

/**
 * The cache generations a runner's commits settle (see StoredLedgerState): `generation`
 * moves with every commit, `changedAt` only with one that changed the read model's data
 * (a block with nothing for the area, or the revert of one, leaves it where it was, so
 * pages keyed by it stay valid), and `commitInFlight` brackets a commit for readers that
 * do not wait for one.
 */
export class CommitGenerations implements Generations {
  generation = 0;
  changedAt = 0;
  commitInFlight = false;

  load(stored: Generations): void {
    ({ generation: this.generation, changedAt: this.changedAt, commitInFlight: this.commitInFlight } = stored);
  }

  /** What the commit in hand settles: the next generation, and the data as of it when the commit changes data. */
  next(changesData: boolean): { generation: number; changedAt: number } {
    const generation = this.generation + 1;
    return { generation, changedAt: changesData ? generation : this.changedAt };
  }

  /** In memory, once the commit's last write is stored. */
  settle(changesData: boolean): void {
    ({ generation: this.generation, changedAt: this.changedAt } = this.next(changesData));
    this.commitInFlight = false;
  }
}
