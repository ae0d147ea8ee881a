import { connect, nanos, type NatsConnection } from '@nats-io/transport-node';
import {
  AckPolicy,
  DeliverPolicy,
  JetStreamApiCodes,
  jetstream,
  jetstreamManager,
  type ConsumerMessages,
  type JetStreamManager,
  type JsMsg,
} from '@nats-io/jetstream';
import type { Logger } from '@ledger-api/observability';
import { parseLedgerMessage } from '../events';
import { DeliveryInterrupted } from '../fault';
import type { NatsCredentials } from '../nats-settings';
import { DEFAULT_LEDGER_STREAM, DEFAULT_SUBJECT_PREFIX, ensureLedgerStream, isJetStreamApiError, type LedgerStreamSettings } from '../stream';
import type { LedgerPosition } from '../types';
import { consumerPendingEvents, newestAppliedBlockTime } from './jetstream-backlog';
import type { LedgerEventHandler, LedgerSource } from './types';

export interface JetStreamLedgerSourceOptions {
  servers: string | string[];
  credentials?: NatsCredentials;
  /** How the stream is created when it is missing. */
  streamSettings?: LedgerStreamSettings;
  /** The pull consumer's name; the consumer is re-created at every start (see below), so only one source may use a name at a time. */
  consumerName: string;
  logger: Logger;
  stream?: string;
  subjectPrefix?: string;
  /** Messages pulled ahead of the one being handled. */
  batchSize?: number;
  /**
   * The consumer belongs to this source alone (a read model of its own, such as
   * an embedded store, needs every event): it is deleted when the source stops,
   * and by the server once nothing has read it for `idleConsumerTtlMs`, which
   * clears the consumers of processes that were killed.
   */
  perProcess?: boolean;
  idleConsumerTtlMs?: number;
}

const DEFAULT_IDLE_CONSUMER_TTL_MS = 10 * 60_000;
/**
 * Handled messages acknowledged at once: each acknowledgement is a write to
 * the server, which message by message costs a replay a fifth of its time.
 */
const ACK_EVERY = 64;

/**
 * Follows the ledger stream through a durable pull consumer. The read model's
 * stored position is the source of truth: every run re-creates the consumer
 * to start right after it, so a store that starts empty replays the stream and
 * a persistent one resumes where it stopped. Deliveries in flight when the
 * connection drops may be lost while the consumer goes on past them, so a run
 * ends with DeliveryInterrupted once the connection is re-established, to be
 * read again from the stored position.
 */
export class JetStreamLedgerSource implements LedgerSource {
  private readonly servers: string | string[];
  private readonly credentials: NatsCredentials;
  private readonly streamSettings: LedgerStreamSettings | undefined;
  private readonly consumerName: string;
  private readonly logger: Logger;
  private readonly stream: string;
  private readonly subjectPrefix: string;
  private readonly batchSize: number;
  private readonly perProcess: boolean;
  private readonly idleConsumerTtlMs: number;
  private connection: Promise<NatsConnection> | undefined;
  private messages: ConsumerMessages | undefined;
  private active: Promise<void> | undefined;
  /** Set while the consumer created by the current run is being read. */
  private manager: JetStreamManager | undefined;
  private stopping = false;
  /** Times the connection was re-established. */
  private reconnects = 0;

  constructor(options: JetStreamLedgerSourceOptions) {
    const { servers, consumerName, logger, stream = DEFAULT_LEDGER_STREAM, subjectPrefix = DEFAULT_SUBJECT_PREFIX, batchSize = 128 } = options;
    this.perProcess = options.perProcess ?? false;
    this.idleConsumerTtlMs = options.idleConsumerTtlMs ?? DEFAULT_IDLE_CONSUMER_TTL_MS;
    this.servers = servers;
    this.credentials = options.credentials ?? {};
    this.streamSettings = options.streamSettings;
    this.consumerName = consumerName;
    this.logger = logger.child({ stream, consumer: consumerName });
    this.stream = stream;
    this.subjectPrefix = subjectPrefix;
    this.batchSize = batchSize;
  }

  run(handler: LedgerEventHandler, from: LedgerPosition): Promise<void> {
    this.stopping = false;
    this.active = this.consume(handler, from).finally(() => {
      this.manager = undefined;
    });
    return this.active;
  }

  /** Lets the event in hand finish, then closes the connection once its ack has reached the server. */
  async stop(): Promise<void> {
    this.stopping = true;
    await this.messages?.close();
    await this.active?.catch(() => undefined);
    const connection = await this.connection?.catch(() => undefined);
    this.connection = undefined;
    if (connection && !connection.isClosed()) {
      await connection.flush().catch(() => undefined);
      if (this.perProcess) await this.deleteConsumer(await jetstreamManager(connection)).catch(() => undefined);
      await connection.close();
    }
  }

  async caughtUp(): Promise<boolean> {
    return (await this.pendingEvents()) === 0;
  }

  /** See SourceBacklog; undefined while not consuming (standing by for the lease, or stopped). */
  async pendingEvents(): Promise<number | undefined> {
    const manager = this.manager;
    return manager && consumerPendingEvents(manager, this.stream, this.consumerName).catch(() => undefined);
  }

  async newestBlockTime(): Promise<number | undefined> {
    const manager = this.manager;
    return manager && newestAppliedBlockTime(manager, this.stream, this.subjectPrefix).catch(() => undefined);
  }

  /**
   * The deliveries from the message after `from` on, through a consumer made afresh; `interrupted`
   * turns true once the connection they come over has been re-established.
   */
  private async openDeliveries(from: LedgerPosition) {
    const connection = await this.connect();
    const reconnectsAtStart = this.reconnects;
    const interrupted = () => this.reconnects !== reconnectsAtStart;
    const jsm = await jetstreamManager(connection);
    await ensureLedgerStream(jsm, this.stream, this.subjectPrefix, this.streamSettings, this.logger);
    await this.recreateConsumer(jsm, from.streamSeq + 1);
    const consumer = await jetstream(connection).consumers.get(this.stream, this.consumerName);
    const messages = await consumer.consume({ max_messages: this.batchSize });
    this.messages = messages;
    this.manager = jsm;
    return { messages, interrupted };
  }

  private async consume(handler: LedgerEventHandler, from: LedgerPosition): Promise<void> {
    const { messages, interrupted } = await this.openDeliveries(from);
    if (this.stopping || interrupted()) await messages.close();
    // Handled but not acknowledged yet: an acknowledgement covers every message before it (AckPolicy.All).
    let unacknowledged: JsMsg | undefined;
    let handledSinceAck = 0;
    const acknowledge = () => {
      unacknowledged?.ack();
      unacknowledged = undefined;
      handledSinceAck = 0;
    };
    // Runs once the loop waits for a delivery: an idle consumer is left with nothing pending. The
    // client's pending count cannot tell that: a status notice in a delivery keeps it above zero.
    let idleAcknowledgement: NodeJS.Immediate | undefined;
    try {
      for await (const message of messages) {
        clearImmediate(idleAcknowledgement);
        const origin = `stream ${this.stream} sequence ${message.seq}`;
        const payload = message.string();
        const event = parseLedgerMessage({ subject: message.subject, payload, subjectPrefix: this.subjectPrefix, origin });
        await handler(event, message.seq, payload);
        unacknowledged = message;
        if (++handledSinceAck >= ACK_EVERY) acknowledge();
        else idleAcknowledgement = setImmediate(acknowledge);
        if (this.stopping || interrupted()) break;
      }
    } finally {
      clearImmediate(idleAcknowledgement);
      acknowledge();
      this.messages = undefined;
      await messages.close();
    }
    if (!this.stopping && interrupted()) throw new DeliveryInterrupted('the NATS connection was re-established');
  }

  /** A durable consumer's start sequence cannot be changed, so it is replaced. */
  private async recreateConsumer(jsm: JetStreamManager, startSeq: number): Promise<void> {
    await this.deleteConsumer(jsm);
    await jsm.consumers.add(this.stream, {
      durable_name: this.consumerName,
      filter_subject: `${this.subjectPrefix}.>`,
      ack_policy: AckPolicy.All,
      deliver_policy: DeliverPolicy.StartSequence,
      opt_start_seq: startSeq,
      ...(this.perProcess && { inactive_threshold: nanos(this.idleConsumerTtlMs) }),
    });
    this.logger.info({ startSeq, perProcess: this.perProcess }, 'ledger consumer created');
  }

  private async deleteConsumer(jsm: JetStreamManager): Promise<void> {
    try {
      await jsm.consumers.delete(this.stream, this.consumerName);
    } catch (error) {
      if (!isJetStreamApiError(error, JetStreamApiCodes.ConsumerNotFound)) throw error;
    }
  }

  /** One connection for the source's lifetime; the client reconnects on its own after it was established. */
  private connect(): Promise<NatsConnection> {
    if (!this.connection) {
      this.connection = connect({ servers: this.servers, ...this.credentials, name: this.consumerName, maxReconnectAttempts: -1 }).then(
        (connection) => {
          void this.watchStatus(connection);
          return connection;
        },
      );
      this.connection.catch(() => {
        this.connection = undefined;
      });
    }
    return this.connection;
  }

  private async watchStatus(connection: NatsConnection): Promise<void> {
    try {
      for await (const status of connection.status()) {
        if (status.type !== 'disconnect' && status.type !== 'reconnect') continue;
        this.logger.warn({ status: status.type }, 'NATS connection status changed');
        if (status.type === 'reconnect') {
          this.reconnects += 1;
          void this.messages?.close().catch(() => undefined);
        }
      }
    } catch (error) {
      this.logger.warn({ err: error }, 'NATS connection status unavailable');
    }
  }
}
