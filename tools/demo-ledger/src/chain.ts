import { createHash } from 'node:crypto';
import { ledgerTimestamp, type Block, type LedgerEvent, type Timestamp, type Transaction } from '@ledger-api/ledger';
import { DemoContext, type DemoAction, type ScheduledEvent } from './context';
import type { Random } from './random';
import type { WalletPool } from './wallets';
import type { WorldState } from './world';

const FIRST_BLOCK_UNIX = Date.parse('2021-03-01T00:00:00.000Z') / 1000;
const BLOCK_SECONDS = 8;
/** Block 1 has no predecessor; the chain's convention is an all-zero id. */
export const GENESIS_PREVIOUS_BLOCK = '0'.repeat(64);

/** Relative odds of a quiet block (1-6 transactions), a busy one (7-12) and a rush (13-20). */
const BLOCK_SIZE_WEIGHTS = [80, 16, 4];
const BLOCK_SIZE_RANGES: Array<[min: number, max: number]> = [
  [1, 6],
  [7, 12],
  [13, 20],
];

export interface ChainSettings {
  seed: number;
  blockCount: number;
  /** Assets minted over the final history (reorganised blocks mint theirs on top). */
  assetCount: number;
  networkVersion: number;
}

function blockTimestamp(height: number): Timestamp {
  return ledgerTimestamp(FIRST_BLOCK_UNIX + (height - 1) * BLOCK_SECONDS);
}

/** Emits the scheduled events once their height is reached, ahead of everything else. */
export function scheduledAction(events: ScheduledEvent[]): DemoAction {
  const schedule = [...events].sort((a, b) => a.height - b.height);
  return {
    weight: (ctx) => (ctx.world.scheduleCursor < schedule.length && schedule[ctx.world.scheduleCursor].height <= ctx.height ? 1e6 : 0),
    run: (ctx) => schedule[ctx.world.takeScheduled()].run(ctx),
  };
}

/**
 * Builds blocks whose transactions are each valid against the world they are
 * applied to. Mints are paced: each block takes its share of the assets still
 * to mint over the blocks still to come, on top of its other traffic when the
 * share outgrows its drawn size, so the ledger ends with `assetCount` assets
 * whatever that is (collections permitting).
 */
export class BlockBuilder {
  private built = 0;

  constructor(
    private readonly random: Random,
    private readonly wallets: WalletPool,
    private readonly settings: ChainSettings,
    private readonly actions: DemoAction[],
    private readonly mint: (ctx: DemoContext) => Transaction | null,
  ) {}

  build(world: WorldState, height: number, previousBlock: string): Block {
    const ctx = new DemoContext(this.random, this.wallets, world, height, this.settings.networkVersion);
    const [min, max] = BLOCK_SIZE_RANGES[this.random.weightedIndex(BLOCK_SIZE_WEIGHTS)];
    let mints = this.mintsDue(world, height);
    const size = Math.max(this.random.int(min, max), mints);
    const transactions: Transaction[] = [];
    for (let slot = 0; slot < size; slot++) {
      const minting = mints > 0 && this.random.next() * (size - slot) < mints;
      if (minting) mints--;
      transactions.push((minting && this.mint(ctx)) || this.nextTransaction(ctx));
    }
    const timestamp = blockTimestamp(height);
    // The build counter keeps an orphan's id distinct from its replacement's whatever they hold.
    const id = createHash('sha256')
      .update(JSON.stringify([this.settings.seed, this.built++, height, previousBlock, timestamp.unix, transactions.map((tx) => tx.id)]))
      .digest('hex');
    return { id, height, previousBlock, timestamp, transactions };
  }

  /** The block's share of the assets left to mint, a fraction of one going to it by chance. */
  private mintsDue(world: WorldState, height: number): number {
    const share = Math.max(0, this.settings.assetCount - world.assets.size) / Math.max(1, this.settings.blockCount - height + 1);
    const whole = Math.floor(share);
    return whole + (this.random.chance(share - whole) ? 1 : 0);
  }

  private nextTransaction(ctx: DemoContext): Transaction {
    const weights = this.actions.map((action) => action.weight(ctx));
    for (;;) {
      const index = this.random.weightedIndex(weights);
      if (index < 0) throw new Error(`no demo transaction is possible at height ${ctx.height}`);
      const tx = this.actions[index].run(ctx);
      if (tx) return tx;
      weights[index] = 0;
    }
  }
}

/**
 * Heights where the chain reorganises, with how many blocks are taken back:
 * one per segment of the ledger, the second of them two blocks deep.
 */
export function planReorganisations(random: Random, blockCount: number): Map<number, number> {
  const count = Math.max(1, Math.round(blockCount / 400));
  const first = 20;
  const segment = Math.floor((blockCount - first - 5) / count);
  const reorganisations = new Map<number, number>();
  for (let i = 0; i < count; i++) {
    reorganisations.set(first + i * segment + random.int(0, segment - 3), i === 1 ? 2 : 1);
  }
  return reorganisations;
}

/**
 * Applies `depth` blocks built on the world, then reverts them, newest first.
 * The world takes back what they changed, so the real chain continues as if
 * they never were.
 */
export function orphanBranch(builder: BlockBuilder, world: WorldState, height: number, depth: number, previousBlock: string): LedgerEvent[] {
  const orphans = world.branch(() => {
    const blocks: Block[] = [];
    let tip = previousBlock;
    for (let offset = 0; offset < depth; offset++) {
      const block = builder.build(world, height + offset, tip);
      blocks.push(block);
      tip = block.id;
    }
    return blocks;
  });
  const applied: LedgerEvent[] = orphans.map((block) => ({ event: 'block.applied', block }));
  const reverted: LedgerEvent[] = orphans
    .reverse()
    .map(({ id, height: orphanHeight }) => ({ event: 'block.reverted', block: { id, height: orphanHeight } }));
  return [...applied, ...reverted];
}
