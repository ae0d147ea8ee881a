import type { Block, LedgerEvent } from '@ledger-api/ledger';

export interface DemoLedgerSummary {
  /** Blocks in the final history (reverted blocks left out). */
  blocks: number;
  /** `block.reverted` events: blocks applied and then taken back. */
  reverts: number;
  /** Transactions in the final history. */
  transactions: number;
  /** Final-history transactions per `<typeGroup>/<type>`. */
  byType: Record<string, number>;
}

/** The blocks that stay on the chain once every revert has taken its block back. */
export function finalHistory(events: Iterable<LedgerEvent>): Block[] {
  const chain: Block[] = [];
  for (const entry of events) {
    if (entry.event === 'block.applied') chain.push(entry.block);
    else chain.pop();
  }
  return chain;
}

/** Events that revert the newest `count` blocks of the chain the events leave, newest first. */
export function revertsOfNewest(events: Iterable<LedgerEvent>, count: number): LedgerEvent[] {
  const chain = finalHistory(events);
  return chain
    .slice(chain.length - count)
    .reverse()
    .map(({ id, height }) => ({ event: 'block.reverted', block: { id, height } }));
}

/** How many of the newest blocks a revert may reach: the demo ledger reorganises two blocks deep at most. */
const REVERTIBLE_BLOCKS = 64;

/**
 * Tallies a ledger event by event, holding only the type counts of the
 * newest blocks apart (a revert takes one of them back) and folding older
 * ones into the totals, so a ledger of any length is summarised in constant memory.
 */
export class LedgerSummarizer {
  private readonly settled = new Map<string, number>();
  private readonly recent: Array<Map<string, number>> = [];
  private settledBlocks = 0;
  private reverts = 0;

  add(entry: LedgerEvent): void {
    if (entry.event === 'block.reverted') {
      if (!this.recent.pop()) throw new Error(`a revert reaches more than ${REVERTIBLE_BLOCKS} blocks back`);
      this.reverts++;
      return;
    }
    const counts = new Map<string, number>();
    for (const tx of entry.block.transactions) {
      const key = `${tx.typeGroup}/${tx.type}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    this.recent.push(counts);
    if (this.recent.length > REVERTIBLE_BLOCKS) this.settle(this.recent.shift()!);
  }

  summary(): DemoLedgerSummary {
    const byType = new Map(this.settled);
    for (const counts of this.recent) for (const [key, count] of counts) byType.set(key, (byType.get(key) ?? 0) + count);
    const sorted = [...byType].sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true }));
    return {
      blocks: this.settledBlocks + this.recent.length,
      reverts: this.reverts,
      transactions: sorted.reduce((sum, [, count]) => sum + count, 0),
      byType: Object.fromEntries(sorted),
    };
  }

  private settle(counts: Map<string, number>): void {
    for (const [key, count] of counts) this.settled.set(key, (this.settled.get(key) ?? 0) + count);
    this.settledBlocks++;
  }
}

export function summarizeLedger(events: Iterable<LedgerEvent>): DemoLedgerSummary {
  const summarizer = new LedgerSummarizer();
  for (const entry of events) summarizer.add(entry);
  return summarizer.summary();
}
