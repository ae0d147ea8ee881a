import type { JetStreamManager } from '@nats-io/jetstream';
import { parseLedgerMessage } from '../events';
import { ledgerSubject } from '../stream';

/** Events the consumer has not had acknowledged: not delivered yet, or delivered and in hand. */
export async function consumerPendingEvents(jsm: JetStreamManager, stream: string, consumer: string): Promise<number> {
  const info = await jsm.consumers.info(stream, consumer);
  return info.num_pending + info.num_ack_pending;
}

/** Unix time, in seconds, of the newest `applied` event the stream holds; undefined when it holds none. */
export async function newestAppliedBlockTime(jsm: JetStreamManager, stream: string, subjectPrefix: string): Promise<number | undefined> {
  const message = await jsm.streams.getMessage(stream, { last_by_subj: ledgerSubject(subjectPrefix, 'applied') });
  if (!message) return undefined;
  const origin = `stream ${stream} sequence ${message.seq}`;
  const event = parseLedgerMessage({ subject: message.subject, payload: message.string(), subjectPrefix, origin });
  return event.event === 'block.applied' ? event.block.timestamp.unix : undefined;
}
