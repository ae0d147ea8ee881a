import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { dataGenerationOf, openEventStream, parseCommitId, type EventStreamConnection, type ReceivedEvent } from '@ledger-api/http';
import { JetStreamLedgerSource } from '@ledger-api/ledger';
import { silentLogger } from '@ledger-api/observability';
import { monotonicMs } from './bench-stats';
import type { PublishedBlock } from './block-publisher';
import { NATS_URL } from '../support/jetstream-ledger';
import { BENCH_AREAS, type JetStreamStack } from './jetstream-stack';

/**
 * Where the time between a publish's acknowledgement and the first fresh answer
 * goes, seen from outside the stack: when a pull consumer of the ledger library
 * (as each projector runs it, on the same stream) receives the event; when each
 * service's own live stream sends it (its projector has committed it); and when
 * the gateway's public stream sends it (its commit feed has it, and the edge
 * cache has moved on).
 */
export type Stage = 'consumer' | 'service' | 'gateway';

export class StageClock {
  /** `stage|area|event|block id` → monotonicMs() of the first sighting. */
  private readonly seen = new Map<string, number>();
  /** `area|event|block id` → whether the area's commit of the event changed its data, as the event's id (a commit id) says. */
  private readonly changes = new Map<string, boolean>();
  private readonly connections: EventStreamConnection[] = [];
  private source: JetStreamLedgerSource | undefined;
  private consuming: Promise<void> | undefined;

  static async start(stack: JetStreamStack): Promise<StageClock> {
    const clock = new StageClock();
    await clock.consume(stack.ledger);
    for (const area of BENCH_AREAS) {
      await clock.follow('service', area.name, `${stack.services[area.name]}${area.eventsPath}`);
      await clock.follow('gateway', area.name, `${stack.gateway}/api${area.eventsPath}`);
    }
    return clock;
  }

  /** Milliseconds from the acknowledgement to the stage's first sighting of the event; null when it never came. */
  elapsed(stage: Stage, area: string, block: PublishedBlock): number | null {
    const at = this.seen.get(`${stage}|${stage === 'consumer' ? '*' : area}|${block.event}|${block.id}`);
    return at === undefined ? null : at - block.ackAt;
  }

  /** Whether the event changed the area's data (its commit names no earlier one's data); undefined when the area's stream was not seen sending it. */
  changed(area: string, block: PublishedBlock): boolean | undefined {
    return this.changes.get(`${area}|${block.event}|${block.id}`);
  }

  async stop(): Promise<void> {
    for (const connection of this.connections) connection.close();
    await this.source?.stop();
    await this.consuming?.catch(() => undefined);
  }

  private note(stage: Stage, area: string, event: string, id: string): void {
    const key = `${stage}|${area}|${event}|${id}`;
    if (!this.seen.has(key)) this.seen.set(key, monotonicMs());
  }

  /** A consumer of its own from the end of the stream, with the library's defaults (batch, expiry, acknowledgements). */
  private async consume(ledger: JetStreamStack['ledger']): Promise<void> {
    const connection = await connect({ servers: NATS_URL });
    const lastSeq = (await (await jetstreamManager(connection)).streams.info(ledger.stream)).state.last_seq;
    await connection.close();
    this.source = new JetStreamLedgerSource({
      servers: NATS_URL,
      consumerName: `bench-stages-${process.pid}`,
      stream: ledger.stream,
      subjectPrefix: ledger.subjectPrefix,
      perProcess: true,
      logger: silentLogger(),
    });
    this.consuming = this.source.run(async (event) => this.note('consumer', '*', event.event, event.block.id), {
      height: 0,
      blockId: '',
      streamSeq: lastSeq,
    });
  }

  private async follow(stage: Stage, area: string, url: string): Promise<void> {
    const onEvent = ({ event, id, data }: ReceivedEvent) => {
      if (event !== 'block.applied' && event !== 'block.reverted') return;
      const block = (JSON.parse(data) as { id: string }).id;
      this.note(stage, area, event, block);
      const commit = stage === 'service' ? parseCommitId(id) : undefined;
      if (commit) this.changes.set(`${area}|${event}|${block}`, dataGenerationOf(commit) === commit.generation);
    };
    const connection = await openEventStream({ url }, { onEvent, onEnd: () => undefined });
    if (connection.status !== 200) throw new Error(`${url} answered ${connection.status}`);
    this.connections.push(connection);
  }
}
