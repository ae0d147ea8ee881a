/** Types several modules of the HTTP kit share; here so none of them imports another for a type alone. */

/** The ledger state an API answer is read from (not the ledger position itself: see LedgerPosition). */
export interface ServedLedgerState {
  /** Height of the last block the answering service applied (X-Block-Height). */
  height: number;
  /** Id of that block (X-Block-Id); empty before the first block. */
  blockId: string;
  /**
   * The commit the state was settled by (a commit id: read model and generation): changes with
   * every applied or reverted block, never back to an earlier value; part of every cache key.
   */
  commit: string;
  /**
   * The commit that last changed the area's data (a commit id), which the state's data is of:
   * moves only with a block that writes to the area (or the revert of one), never back to an
   * earlier value. Pages whose answer depends on nothing else are keyed by it.
   */
  dataCommit: string;
  /** A block is being written: the store may hold part of it, so no page read now is cached. */
  commitInFlight?: boolean;
}
