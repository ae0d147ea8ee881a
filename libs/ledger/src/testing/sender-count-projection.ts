import type { Doc } from '@ledger-api/store';
import type { Projection } from '../projection/types';
import type { TestLedger } from './test-ledger';
import type { Transaction } from '../types';

export const SENDERS = 'senders';

export interface SenderDoc extends Doc {
  count: number;
  lastHeight: number;
  transactionIds: string[];
}

/**
 * A projection for tests: type 0 counts a transaction for its sender (creating
 * the sender on first sight), type 1 deletes the sender's document.
 */
export const senderCountProjection: Projection = {
  area: 'test',
  collections: [{ name: SENDERS, indexes: [] }],
  projects: (tx) => tx.type === 0 || tx.type === 1,
  async applyTransaction(ctx, tx) {
    if (tx.type === 1) {
      ctx.remove(SENDERS, tx.senderPublicKey);
      return;
    }
    const known = await ctx.get<SenderDoc>(SENDERS, tx.senderPublicKey);
    const { count = 0, transactionIds = [] } = known ?? {};
    ctx.put(SENDERS, { _id: tx.senderPublicKey, count: count + 1, lastHeight: ctx.block.height, transactionIds: [...transactionIds, tx.id] });
  },
};

/** A transaction the projection counts for its sender. */
export function countedBy(ledger: TestLedger, senderPublicKey: string): Transaction {
  return ledger.transaction({ typeGroup: 1, type: 0, senderPublicKey });
}

/** A transaction that makes the projection delete its sender. */
export function forgettingSender(ledger: TestLedger, senderPublicKey: string): Transaction {
  return ledger.transaction({ typeGroup: 1, type: 1, senderPublicKey });
}
