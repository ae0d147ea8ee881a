import type { Block } from '../types';

/** A remembered block: what chaining needs, and the rest as JSON text. */
interface RememberedBlock {
  height: number;
  previousBlock: string;
  text: string;
}

/**
 * The most recently applied blocks, by id. JetStream drops a message whose id
 * (`applied:<height>:<blockId>`) it stored within its duplicate window, so when
 * the ledger reverts a block and applies the very same block again, the second
 * copy never arrives. The next block then names it as its parent; remembering
 * applied blocks lets the runner re-apply that exact block instead of faulting.
 *
 * Blocks are kept as flat JSON text: one string apiece rather than hundreds of
 * objects that would outlive a young-generation collection and leave the old
 * generation a block's worth of garbage for every block of a replay.
 */
export class RecentBlocks {
  private readonly blocks = new Map<string, RememberedBlock>();

  constructor(private readonly capacity = 512) {}

  remember(block: Block): void {
    const text = JSON.stringify(block);
    // Reading a character joins the pieces V8 built the text from into one string.
    text.charCodeAt(0);
    this.blocks.delete(block.id);
    this.blocks.set(block.id, { height: block.height, previousBlock: block.previousBlock, text });
    if (this.blocks.size > this.capacity) this.blocks.delete(this.blocks.keys().next().value as string);
  }

  /**
   * The remembered blocks leading from the block after `tip` up to `parentId`,
   * oldest first; undefined unless every link is known and heights are consecutive.
   */
  chainBetween(tip: { height: number; blockId: string }, parentId: string, parentHeight: number): Block[] | undefined {
    const chain: RememberedBlock[] = [];
    let id = parentId;
    for (let height = parentHeight; height > tip.height; height -= 1) {
      const block = this.blocks.get(id);
      if (!block || block.height !== height) return undefined;
      chain.unshift(block);
      id = block.previousBlock;
    }
    return id === tip.blockId && chain.length > 0 ? chain.map(({ text }) => JSON.parse(text) as Block) : undefined;
  }
}
