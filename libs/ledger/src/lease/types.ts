/**
 * The right to be an area's single writer. Projectors that share a read model
 * (and so one durable consumer) take it before consuming; whoever does not hold
 * it waits instead of replacing the holder's consumer.
 */
export interface ProjectorLease {
  /**
   * Waits until this process holds the lease. Resolves with a signal that fires
   * when the hold is lost (another process took over, or it could not be renewed
   * in time), or with undefined once `stop` fires first.
   */
  acquire(stop: AbortSignal): Promise<AbortSignal | undefined>;
  /** Lets go of a held lease at once, so another process need not wait for it to expire. */
  release(): Promise<void>;
}
