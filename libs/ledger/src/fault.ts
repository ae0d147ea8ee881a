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

/**
 * An event that does not follow the stored position: a gap in heights, a block
 * on an unknown parent, a revert of another block than the last one. A lost
 * delivery looks just like this while the stream holds every block, so a
 * consumer reads again from its stored position before taking it as final.
 */
export class LedgerGapFault extends LedgerFault {
  constructor(reason: string, block?: BlockRef) {
    super(reason, block);
    this.name = 'LedgerGapFault';
  }
}

/**
 * The source may have lost deliveries in flight (the broker connection was
 * re-established): the events after the stored position are read again.
 */
export class DeliveryInterrupted extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'DeliveryInterrupted';
  }
}
