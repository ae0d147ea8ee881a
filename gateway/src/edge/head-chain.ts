import type { StreamEvent } from '@ledger-api/http-core';

/** A block the area stands at: what X-Block-Height and X-Block-Id of an answer read at its head say. */
export interface HeadBlock {
  height: number;
  id: string;
}

/**
 * The blocks an area stands on since its feed connected, newest last: a revert's event names
 * the block taken back, and the one below it is where the area stands then. Empty when that
 * is not known (right after a revert of a block whose parent the feed never saw applied).
 */
export class HeadChain {
  private blocks: HeadBlock[] = [];

  /** `kept`: how many heads a run of reverts can go back to; past what the feed buffers a reconnection starts afresh anyway. */
  constructor(private readonly kept: number) {}

  head(): HeadBlock | undefined {
    return this.blocks.at(-1);
  }

  /** Where a (re)connection opens: nothing below it is known. */
  startAt({ height, id }: HeadBlock): void {
    this.blocks = [{ height, id }];
  }

  /** An applied block goes on top; a revert takes its block off, and the one below is the head when it was seen applied. */
  follow({ event, data: { height, id } }: StreamEvent): void {
    const below = this.blocks.filter((block) => block.height < height);
    if (event === 'block.applied') {
      below.push({ height, id });
      if (below.length > this.kept) below.shift();
    }
    const top = below.at(-1);
    this.blocks = event === 'block.reverted' && top?.height !== height - 1 ? [] : below;
  }
}
