import type { Block } from '../types';

/**
 * The most recently applied blocks, by id. JetStream drops a message whose id
 * (`applied:<height>:<blockId>`) it stored within its duplicate window, so when
 * the ledger reverts a block and applies the very same block again, the second
 * copy never arrives. The next block then names it as its parent; remembering
 * applied blocks lets the runner re-apply that exact block instead of faulting.
 */
export class RecentBlocks {
  private readonly blocks = new Map<string, Block>();

  constructor(private readonly capacity = 512) {}

  remember(block: Block): void {
    this.blocks.delete(block.id);
    this.blocks.set(block.id, block);
    if (this.blocks.size > this.capacity) this.blocks.delete(this.blocks.keys().next().value as string);
  }

  /**
   * The remembered blocks leading from the block after `tip` up to `parentId`,
   * oldest first; undefined unless every link is known and heights are consecutive.
   */
  chainBetween(tip: { height: number; blockId: string }, parentId: string, parentHeight: number): Block[] | undefined {
    const chain: Block[] = [];
    let id = parentId;
    for (let height = parentHeight; height > tip.height; height -= 1) {
      const block = this.blocks.get(id);
      if (!block || block.height !== height) return undefined;
      chain.unshift(block);
      id = block.previousBlock;
    }
    return id === tip.blockId && chain.length > 0 ? chain : undefined;
  }
}
