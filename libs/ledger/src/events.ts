import { LedgerFault } from './fault';
import { ledgerSubject } from './stream';
import type { LedgerEvent, LedgerEventKind } from './types';

export function eventKind(event: LedgerEvent): LedgerEventKind {
  return event.event === 'block.applied' ? 'applied' : 'reverted';
}

/** The JetStream de-duplication id of an event: a retried publish is stored once. */
export function eventMessageId(event: LedgerEvent): string {
  return `${eventKind(event)}:${event.block.height}:${event.block.id}`;
}

/**
 * Parses one line of a ledger file, `{"event": ..., "block": ...}`.
 * `origin` names where it came from (e.g. "line 12") in the fault raised when
 * it is not a valid event.
 */
export function parseLedgerEvent(text: string, origin: string): LedgerEvent {
  return validEvent(parseJson(text, origin), origin);
}

const LEDGER_EVENT_KINDS: readonly LedgerEventKind[] = ['applied', 'reverted'];
const EVENT_OF_KIND: Record<LedgerEventKind, LedgerEvent['event']> = { applied: 'block.applied', reverted: 'block.reverted' };

export interface LedgerMessage {
  subject: string;
  payload: string;
  /** The stream's subjects are `<subjectPrefix>.applied` and `<subjectPrefix>.reverted`. */
  subjectPrefix: string;
  /** Names the message (e.g. its stream sequence) in the fault raised when it cannot be read. */
  origin: string;
}

/**
 * Parses a message of the ledger stream. The subject says the kind; the payload
 * is the event's block as docs/ledger-events.md gives it (the Block, or `{id, height}`),
 * or a whole file line, whose event must then agree with the subject.
 */
export function parseLedgerMessage({ subject, payload, subjectPrefix, origin }: LedgerMessage): LedgerEvent {
  const kind = LEDGER_EVENT_KINDS.find((candidate) => subject === ledgerSubject(subjectPrefix, candidate));
  if (!kind) throw new LedgerFault(`${origin}: subject ${subject} is not one of ${subjectPrefix}.{${LEDGER_EVENT_KINDS.join(',')}}`);
  const value = parseJson(payload, origin);
  const expected = EVENT_OF_KIND[kind];
  const isFileLine = isObject(value) && Object.hasOwn(value, 'event');
  if (isFileLine && value.event !== expected) {
    throw new LedgerFault(`${origin}: event ${JSON.stringify(value.event)} contradicts its subject ${subject}`);
  }
  const event = validEvent(isFileLine ? value : { event: expected, block: value }, origin);
  return event.event === 'block.reverted' ? { event: event.event, block: { id: event.block.id, height: event.block.height } } : event;
}

function parseJson(text: string, origin: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new LedgerFault(`${origin}: not valid JSON`);
  }
}

function validEvent(value: unknown, origin: string): LedgerEvent {
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
    (tx) =>
      !isObject(tx) ||
      !isNonEmptyString(tx.id) ||
      typeof tx.typeGroup !== 'number' ||
      typeof tx.type !== 'number' ||
      !isNonEmptyString(tx.senderPublicKey),
  );
  // Every area reads the sender of every transaction (public keys become known when their owner signs).
  return index === -1 ? undefined : `block.transactions[${index}] must have an id, typeGroup, type and senderPublicKey`;
}
