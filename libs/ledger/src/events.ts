import { LedgerFault } from './fault';
import type { LedgerEvent } from './types';

export type LedgerEventKind = 'applied' | 'reverted';

export function eventKind(event: LedgerEvent): LedgerEventKind {
  return event.event === 'block.applied' ? 'applied' : 'reverted';
}

/** The JetStream de-duplication id of an event: a retried publish is stored once. */
export function eventMessageId(event: LedgerEvent): string {
  return `${eventKind(event)}:${event.block.height}:${event.block.id}`;
}

/**
 * Parses one serialized ledger event (a JSON Lines line or a message payload).
 * `origin` names where it came from (e.g. "line 12") in the fault raised when
 * it is not a valid event.
 */
export function parseLedgerEvent(text: string, origin: string): LedgerEvent {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new LedgerFault(`${origin}: not valid JSON`);
  }
  const problem = eventProblem(value);
  if (problem) throw new LedgerFault(`${origin}: not a valid ledger event (${problem})`);
  return value as LedgerEvent;
}

type Fields = Record<string, unknown>;

function isObject(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isNonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0;
}

function eventProblem(value: unknown): string | undefined {
  if (!isObject(value)) return 'not an object';
  const { event, block } = value;
  if (event !== 'block.applied' && event !== 'block.reverted') return 'event must be block.applied or block.reverted';
  if (!isObject(block)) return 'block must be an object';
  if (!isNonEmptyString(block.id)) return 'block.id must be a non-empty string';
  if (!Number.isSafeInteger(block.height) || (block.height as number) < 1) return 'block.height must be a positive integer';
  return event === 'block.applied' ? appliedBlockProblem(block) : undefined;
}

function appliedBlockProblem(block: Fields): string | undefined {
  if (typeof block.previousBlock !== 'string') return 'block.previousBlock must be a string';
  const { timestamp, transactions } = block;
  if (!isObject(timestamp) || typeof timestamp.epoch !== 'number' || typeof timestamp.unix !== 'number' || typeof timestamp.human !== 'string') {
    return 'block.timestamp must have epoch, unix and human';
  }
  if (!Array.isArray(transactions)) return 'block.transactions must be an array';
  const index = transactions.findIndex(
    (tx) => !isObject(tx) || !isNonEmptyString(tx.id) || typeof tx.typeGroup !== 'number' || typeof tx.type !== 'number',
  );
  return index === -1 ? undefined : `block.transactions[${index}] must have an id, typeGroup and type`;
}
