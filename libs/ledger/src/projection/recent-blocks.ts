import type { Block } from '../types';

/** A remembered block: what chaining needs, and the rest as JSON text (the block, or the event holding it). */
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
 * Blocks are kept as JSON text: one string apiece rather than hundreds of
 * objects that would outlive a young-generation collection and leave the old
 * generation a block's worth of garbage for every block of a replay. The text
 * the source read the event from serves, where it gives it: no block is then
 * written out again, and a line read from a file keeps at most the chunk it
 * was read in alive with it.
 */
export class RecentBlocks {
  private readonly blocks = new Map<string, RememberedBlock>();

  constructor(private readonly capacity = 512) {}

  /** `text`: the block or its event as JSON, as the source read it; written out here without it. */
  remember(block: Block, text = JSON.stringify(block)): void {
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
    return id === tip.blockId && chain.length > 0 ? chain.map(({ text }) => blockOf(text)) : undefined;
  }
}

/** A text holding an `event` member is the whole event, as parseLedgerMessage reads it; otherwise the block itself. */
function blockOf(text: string): Block {
  const value = JSON.parse(text) as Block | { event: string; block: Block };
  return Object.hasOwn(value, 'event') ? (value as { block: Block }).block : (value as Block);
}
