import { setTimeout as delay } from 'node:timers/promises';
import { connect } from '@nats-io/transport-node';
import { jetstream, jetstreamManager, type JetStreamClient } from '@nats-io/jetstream';
import { eventKind, eventMessageId } from '../events';
import { ensureLedgerStream, ledgerSubject } from '../stream';
import type { LedgerEvent } from '../types';

/**
 * How an event travels as a message: `bare` as docs/ledger-events.md section 1 gives
 * it (the Block, or `{id, height}`), `envelope` as a whole file line.
 */
export type PayloadForm = 'bare' | 'envelope';

export interface PublishEventsOptions {
  servers: string;
  stream: string;
  subjectPrefix: string;
  events: LedgerEvent[];
  form: PayloadForm;
  /** Called with the number of events stored so far, after each one. */
  onStored?: (stored: number) => void;
  /** How long one event may take to be stored, retries included. */
  timeoutMs?: number;
}

const PUBLISH_ATTEMPT_TIMEOUT_MS = 1_000;
const RETRY_DELAY_MS = 50;

export function payloadOf(event: LedgerEvent, form: PayloadForm): string {
  if (form === 'envelope') return JSON.stringify(event);
  return JSON.stringify(event.event === 'block.applied' ? event.block : { id: event.block.id, height: event.block.height });
}

/**
 * Publishes events in order with their `Nats-Msg-Id`, each retried until the
 * stream has stored it, the way a publisher rides out a broker restart: the
 * message id keeps a retried event that was stored already from being stored twice.
 */
export async function publishEvents(options: PublishEventsOptions): Promise<void> {
  const { servers, stream, subjectPrefix, events, form, onStored, timeoutMs = 30_000 } = options;
  const connection = await connect({ servers, maxReconnectAttempts: -1, reconnectTimeWait: 100 });
  try {
    await ensureLedgerStream(await jetstreamManager(connection), stream, subjectPrefix);
    const js = jetstream(connection);
    for (const [index, event] of events.entries()) {
      await publishUntilStored(js, ledgerSubject(subjectPrefix, eventKind(event)), payloadOf(event, form), eventMessageId(event), timeoutMs);
      onStored?.(index + 1);
    }
  } finally {
    await connection.close();
  }
}

async function publishUntilStored(js: JetStreamClient, subject: string, payload: string, msgID: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await js.publish(subject, payload, { msgID, timeout: PUBLISH_ATTEMPT_TIMEOUT_MS });
      return;
    } catch (error) {
      if (Date.now() > deadline) throw new Error(`${msgID} was not stored within ${timeoutMs} ms`, { cause: error });
      await delay(RETRY_DELAY_MS);
    }
  }
}
