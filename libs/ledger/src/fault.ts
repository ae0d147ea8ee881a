import type { BlockRef } from './types';

/**
 * The ledger input cannot be followed safely (a gap, an unknown block id, an
 * unreadable event). Consuming stops instead of skipping or guessing, and
 * nothing is changed by the event that raised it.
 */
export class LedgerFault extends Error {
  constructor(
    readonly reason: string,
    readonly block?: BlockRef,
  ) {
    super(block ? `block ${block.height} (${block.id}): ${reason}` : reason);
    this.name = 'LedgerFault';
  }
}
