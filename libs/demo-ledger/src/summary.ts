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

export function summarizeLedger(events: LedgerEvent[]): DemoLedgerSummary {
  const chain = finalHistory(events);
  const byType: Record<string, number> = {};
  let transactions = 0;
  for (const block of chain) {
    for (const tx of block.transactions) {
      const key = `${tx.typeGroup}/${tx.type}`;
      byType[key] = (byType[key] ?? 0) + 1;
      transactions++;
    }
  }
  const sortedByType = Object.fromEntries(Object.entries(byType).sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true })));
  return {
    blocks: chain.length,
    reverts: events.filter((entry) => entry.event === 'block.reverted').length,
    transactions,
    byType: sortedByType,
  };
}
