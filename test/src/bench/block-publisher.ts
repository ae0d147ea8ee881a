import { jetstream, jetstreamManager, type JetStreamClient } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { eventKind, eventMessageId, ensureLedgerStream, ledgerSubject, type Block, type LedgerEvent } from '@ledger-api/ledger';
import { payloadOf } from '@ledger-api/ledger/testing';
import { groupBlock } from '../support/ledger-files';
import { monotonicMs } from './bench-stats';

/** One event the benchmark published, and when JetStream acknowledged it. */
export interface PublishedBlock {
  event: LedgerEvent['event'];
  /** The block's id: the applied block's, or the reverted one's. */
  id: string;
  /** The block's height: the applied block's, or the reverted one's. */
  height: number;
  /** The height every area stands at once it has committed the event. */
  heightAfter: number;
  /** monotonicMs() when the publish's acknowledgement arrived. */
  ackAt: number;
}

/**
 * Publishes blocks on top of a ledger's tip, one at a time, each timed to its
 * JetStream acknowledgement: applies of a one-group Guardian block, and reverts
 * of the newest block it applied itself.
 */
export class BlockPublisher {
  private readonly chain: Block[];
  private made = 0;

  private constructor(
    private readonly connection: NatsConnection,
    private readonly js: JetStreamClient,
    private readonly subjectPrefix: string,
    tip: Block,
    /** Makes the blocks' ids unique across runs on one stream history. */
    private readonly tag: string,
  ) {
    this.chain = [tip];
  }

  static async connect(options: { servers: string; stream: string; subjectPrefix: string; tip: Block }): Promise<BlockPublisher> {
    const connection = await connect({ servers: options.servers });
    await ensureLedgerStream(await jetstreamManager(connection), options.stream, options.subjectPrefix);
    const tag = Date.now().toString(36);
    return new BlockPublisher(connection, jetstream(connection), options.subjectPrefix, options.tip, tag);
  }

  get height(): number {
    return this.chain[this.chain.length - 1].height;
  }

  /** Whether the top block is one this publisher applied (and may revert). */
  get canRevert(): boolean {
    return this.chain.length > 1;
  }

  async apply(): Promise<PublishedBlock> {
    this.made += 1;
    const block = groupBlock(this.chain[this.chain.length - 1], `b${this.tag}-${this.made}`);
    const ackAt = await this.publish({ event: 'block.applied', block });
    this.chain.push(block);
    return { event: 'block.applied', id: block.id, height: block.height, heightAfter: block.height, ackAt };
  }

  async revert(): Promise<PublishedBlock> {
    if (!this.canRevert) throw new Error('only blocks this publisher applied are reverted');
    const { id, height } = this.chain[this.chain.length - 1];
    const ackAt = await this.publish({ event: 'block.reverted', block: { id, height } });
    this.chain.pop();
    return { event: 'block.reverted', id, height, heightAfter: height - 1, ackAt };
  }

  async close(): Promise<void> {
    await this.connection.close();
  }

  private async publish(event: LedgerEvent): Promise<number> {
    const ack = await this.js.publish(ledgerSubject(this.subjectPrefix, eventKind(event)), payloadOf(event, 'bare'), {
      msgID: eventMessageId(event),
    });
    const ackAt = monotonicMs();
    if (ack.duplicate) throw new Error(`${eventMessageId(event)} was stored before`);
    return ackAt;
  }
}
