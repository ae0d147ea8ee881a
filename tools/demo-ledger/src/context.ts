import { createHash } from 'node:crypto';
import type { Transaction } from '@ledger-api/ledger';
import type { Random } from './random';
import type { WalletPool } from './wallets';
import type { WorldState } from './world';

export const TRANSACTION_VERSION = 2;
// The core and guardian formats have no library of their own to take these from (the
// guardian's live in its service, which a library must not depend on); the NFT ones
// come from @ledger-api/nft-read-model.
export const CORE_TYPE_GROUP = 1;
export const GUARDIAN_TYPE_GROUP = 9002;

/** The part of a demo transaction an area decides (sender: a wallet index); the context adds nonce, fee, signature and id. */
export interface DemoTransactionDraft {
  sender: number;
  typeGroup: number;
  type: number;
  asset?: Record<string, unknown>;
  amount?: bigint;
  recipientId?: string;
  vendorField?: string;
}

/** Odd transactions carry an amount-sized fee so numeric ordering is exercised past 2^53. */
const OVERSIZED_FEE_CHANCE = 0.0015;
const OVERSIZED_DIGITS = 25;

/** Everything an area needs to add one transaction to the block being built. */
export class DemoContext {
  constructor(
    readonly random: Random,
    readonly wallets: WalletPool,
    readonly world: WorldState,
    readonly height: number,
    private readonly network: number,
  ) {}

  transaction(draft: DemoTransactionDraft): Transaction {
    const body = {
      version: TRANSACTION_VERSION,
      network: this.network,
      typeGroup: draft.typeGroup,
      type: draft.type,
      nonce: String(this.world.nextNonce(draft.sender)),
      senderPublicKey: this.wallets.get(draft.sender).publicKey,
      fee: this.fee(draft.typeGroup),
      amount: String(draft.amount ?? 0n),
      ...(draft.recipientId !== undefined && { recipientId: draft.recipientId }),
      ...(draft.vendorField !== undefined && { vendorField: draft.vendorField }),
      // A copy, so no two transactions share an object a consumer might change in place.
      ...(draft.asset !== undefined && { asset: structuredClone(draft.asset) }),
      signature: this.random.hex(64),
    };
    const id = createHash('sha256').update(JSON.stringify(body)).digest('hex');
    return { id, ...body };
  }

  /** A 25-digit amount, for the few records that must exceed 2^53. */
  oversizedAmount(): bigint {
    return BigInt(this.random.digits(OVERSIZED_DIGITS));
  }

  private fee(typeGroup: number): string {
    if (this.random.chance(OVERSIZED_FEE_CHANCE)) return String(this.oversizedAmount());
    // Transfers pay around 0.01-0.1 coin, the plugin types a few coins (in 10^-8 units).
    const fee = typeGroup === CORE_TYPE_GROUP ? this.random.int(1_000_000, 10_000_000) : this.random.int(50_000_000, 500_000_000);
    return String(fee);
  }
}

/** One kind of transaction an area can add: how likely it is now, and how to build it. */
export interface DemoAction {
  weight(ctx: DemoContext): number;
  /** A transaction valid against the current world, or null when none is possible now. */
  run(ctx: DemoContext): Transaction | null;
}

/** A transaction planned in advance for a height (Guardian setup, collection launches). */
export interface ScheduledEvent {
  height: number;
  run(ctx: DemoContext): Transaction;
}

/** The height at a given progress (0..1) through a ledger of `blockCount` blocks. */
export function heightAt(progress: number, blockCount: number): number {
  return Math.min(blockCount, Math.max(1, Math.round(progress * blockCount)));
}
