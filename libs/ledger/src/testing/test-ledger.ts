import { createHash } from 'node:crypto';
import { LEDGER_EPOCH_UNIX, ledgerTimestamp } from '../timestamps';
import type { Block, BlockRef, LedgerEvent, Transaction } from '../types';

const BLOCK_SECONDS = 8;

/** The fields a test gives; `TestLedger.transaction` fills in the rest. */
export type TestTransactionFields = Pick<Transaction, 'typeGroup' | 'type' | 'senderPublicKey'> & Partial<Transaction>;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * Builds a consistent ledger for tests and fixtures: consecutive heights,
 * chained block ids, per-sender nonces and deterministic transaction ids.
 * Events accumulate until `take()` hands them over.
 */
export class TestLedger {
  private readonly chain: Block[] = [];
  private readonly nonces = new Map<string, bigint>();
  private pending: LedgerEvent[] = [];
  private made = 0;
  private blocksMade = 0;

  constructor(private readonly seed = 'test') {}

  get height(): number {
    return this.chain.length === 0 ? 0 : this.chain[this.chain.length - 1].height;
  }

  transaction(draft: TestTransactionFields): Transaction {
    this.made += 1;
    const nonce = (this.nonces.get(draft.senderPublicKey) ?? 0n) + 1n;
    this.nonces.set(draft.senderPublicKey, nonce);
    return {
      id: sha256(`${this.seed}:tx:${this.made}`),
      version: 2,
      network: 23,
      nonce: nonce.toString(),
      fee: '10000000',
      amount: '0',
      signature: sha256(`${this.seed}:sig:${this.made}`).repeat(2),
      ...draft,
    };
  }

  /** Appends a `block.applied` event for a new block holding these transactions. */
  block(transactions: Transaction[]): Block {
    const height = this.height + 1;
    this.blocksMade += 1;
    const block: Block = {
      id: sha256(`${this.seed}:block:${this.blocksMade}`),
      height,
      previousBlock: this.chain.length === 0 ? '0'.repeat(64) : this.chain[this.chain.length - 1].id,
      timestamp: ledgerTimestamp(LEDGER_EPOCH_UNIX + height * BLOCK_SECONDS),
      transactions,
    };
    this.chain.push(block);
    this.pending.push({ event: 'block.applied', block });
    return block;
  }

  /** Appends a `block.reverted` event for the top block. */
  revert(): BlockRef {
    const top = this.chain.pop();
    if (!top) throw new Error('nothing to revert');
    this.pending.push({ event: 'block.reverted', block: { id: top.id, height: top.height } });
    return { id: top.id, height: top.height };
  }

  /** The events appended since the last call. */
  take(): LedgerEvent[] {
    const events = this.pending;
    this.pending = [];
    return events;
  }
}

/** A deterministic 66-hex compressed-looking public key for fixtures. */
export function testPublicKey(name: string): string {
  return `02${sha256(`key:${name}`)}`;
}
