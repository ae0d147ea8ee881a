import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Block, LedgerEvent, Transaction } from '@ledger-api/ledger';

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `${prefix}-`));
}

export function writeEvents(path: string, events: LedgerEvent[]): string {
  writeFileSync(path, events.map((event) => JSON.stringify(event)).join('\n') + '\n');
  return path;
}

/** The top block after replaying the events, reverts included. */
export function topBlock(events: LedgerEvent[]): Block {
  const chain: Block[] = [];
  for (const event of events) {
    if (event.event === 'block.applied') chain.push(event.block);
    else chain.pop();
  }
  return chain[chain.length - 1];
}

/** A block on top of `parent` holding one Guardian group, to watch a block arrive and be taken back. */
export function groupBlock(parent: Block, groupName: string): Block {
  const id = (seed: string) => Buffer.from(`${seed}:${groupName}`).toString('hex').padEnd(64, '0').slice(0, 64);
  const transaction: Transaction = {
    id: id('tx'),
    version: 2,
    network: 23,
    typeGroup: 9002,
    type: 1,
    nonce: '1',
    senderPublicKey: `03${'ab'.repeat(32)}`,
    fee: '0',
    amount: '0',
    asset: { setGroupPermissions: { name: groupName, priority: 1, active: true, default: false } },
  };
  const epoch = parent.timestamp.epoch + 8;
  return {
    id: id('block'),
    height: parent.height + 1,
    previousBlock: parent.id,
    timestamp: { epoch, unix: parent.timestamp.unix + 8, human: new Date((parent.timestamp.unix + 8) * 1000).toISOString() },
    transactions: [transaction],
  };
}
