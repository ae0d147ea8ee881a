import { writeFile } from 'node:fs/promises';
import type { Block, BlockRef, LedgerEvent } from '../types';

export function applied(block: Block): LedgerEvent {
  return { event: 'block.applied', block };
}

export function reverted({ id, height }: BlockRef): LedgerEvent {
  return { event: 'block.reverted', block: { id, height } };
}

/** Writes events as a JSON Lines ledger file. */
export async function writeLedgerFile(path: string, events: LedgerEvent[]): Promise<void> {
  await writeFile(path, events.map((event) => `${JSON.stringify(event)}\n`).join(''));
}
