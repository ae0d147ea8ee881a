export interface HeldLease {
  /** Fires when the hold is lost: another process took over, or it could not be renewed in time. */
  lost: AbortSignal;
  /**
   * The fencing token of this hold: greater than that of every earlier hold of the lease. The
   * read model refuses a commit under a token lower than the newest it has seen, so a holder
   * that stalled past its lease cannot write once its successor has claimed the read model.
   */
  token: number;
}

/**
 * The right to be an area's single writer. Projectors that share a read model
 * (and so one durable consumer) take it before consuming; whoever does not hold
 * it waits instead of replacing the holder's consumer.
 */
export interface ProjectorLease {
  /**
   * Waits until this process holds the lease. Resolves with the hold (see HeldLease),
   * or with undefined once `stop` fires first.
   */
  acquire(stop: AbortSignal): Promise<HeldLease | undefined>;
  /** Lets go of a held lease at once, so another process need not wait for it to expire. */
  release(): Promise<void>;
}

/** A commit refused because a later lease holder has claimed the read model: this writer must step down. */
export class FencedOut extends Error {
  constructor(
    readonly token: number,
    readonly claimedWith: number,
  ) {
    super(`the read model was claimed under lease token ${claimedWith}; this writer holds ${token}`);
    this.name = 'FencedOut';
  }
}
