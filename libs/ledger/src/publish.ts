import { connect } from '@nats-io/transport-node';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import type { Logger } from '@ledger-api/observability';
import { eventKind, eventMessageId, parseLedgerEvent } from './events';
import { assertReadable, readLines } from './lines';
import type { NatsCredentials } from './nats-settings';
import { DEFAULT_LEDGER_STREAM, DEFAULT_SUBJECT_PREFIX, ensureLedgerStream, ledgerSubject, type LedgerStreamSettings } from './stream';

export interface PublishLedgerFileOptions {
  servers: string | string[];
  credentials?: NatsCredentials;
  /** How the stream is created when it is missing. */
  streamSettings?: LedgerStreamSettings;
  /** Publish nothing into a stream that holds events already (a first run's seed). */
  onlyIntoEmptyStream?: boolean;
  file: string;
  logger: Logger;
  stream?: string;
  subjectPrefix?: string;
}

export interface PublishSummary {
  stream: string;
  applied: number;
  reverted: number;
  /** Events the stream already held under the same message id (stored once). */
  duplicates: number;
  /** Stream sequence of the last event published, 0 when the file held none. */
  lastSeq: number;
  /** Set when nothing was published because the stream held events already (onlyIntoEmptyStream). */
  skipped?: true;
}

/**
 * Publishes a JSON Lines ledger file to the ledger stream, one event at a
 * time in file order, each awaited until the stream has stored it. The message
 * id makes a retried publish of the same event a no-op.
 */
export async function publishLedgerFile(options: PublishLedgerFileOptions): Promise<PublishSummary> {
  const { servers, file, logger, stream = DEFAULT_LEDGER_STREAM, subjectPrefix = DEFAULT_SUBJECT_PREFIX } = options;
  await assertReadable(file);
  const connection = await connect({ servers, ...options.credentials }).catch((error: Error) => {
    throw new Error(`cannot connect to NATS at ${String(servers)}: ${error.message}`, { cause: error });
  });
  try {
    const jsm = await jetstreamManager(connection);
    await ensureLedgerStream(jsm, stream, subjectPrefix, options.streamSettings, logger);
    const summary: PublishSummary = { stream, applied: 0, reverted: 0, duplicates: 0, lastSeq: 0 };
    if (options.onlyIntoEmptyStream) {
      const { state } = await jsm.streams.info(stream);
      if (state.messages > 0) return { ...summary, lastSeq: state.last_seq, skipped: true };
    }
    const js = jetstream(connection);
    for await (const { number, text } of readLines(file)) {
      const event = parseLedgerEvent(text, `${file} line ${number}`);
      const kind = eventKind(event);
      const ack = await js.publish(ledgerSubject(subjectPrefix, kind), text, { msgID: eventMessageId(event) });
      summary[kind] += 1;
      if (ack.duplicate) summary.duplicates += 1;
      summary.lastSeq = ack.seq;
    }
    logger.info(summary, 'ledger file published');
    return summary;
  } finally {
    await connection.close();
  }
}
