import { join } from 'node:path';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { publishLedgerFile, type LedgerEvent } from '@ledger-api/ledger';
import { silentLogger } from '@ledger-api/observability';
import { tempDir, writeEvents } from './ledger-files';

/** The NATS server every machine of the project runs (docs/design.md, Tests). */
export const NATS_URL = 'nats://127.0.0.1:4222';

/**
 * A ledger stream of its own on the local JetStream, for one test file: publish blocks
 * to it while services consume it, and delete it afterwards.
 */
export class JetStreamLedger {
  readonly stream: string;
  readonly subjectPrefix: string;
  private readonly dir: string;
  private published = 0;

  constructor(name: string) {
    const unique = `${process.pid}_${Date.now()}`;
    this.stream = `${name.toUpperCase()}_${unique}`;
    this.subjectPrefix = `${name}.${unique.replace('_', '.')}`;
    this.dir = tempDir(name);
  }

  /** The environment that points a service's projector at this stream. */
  get env(): Record<string, string> {
    return { NATS_URL, LEDGER_STREAM: this.stream, LEDGER_SUBJECT_PREFIX: this.subjectPrefix };
  }

  async publish(events: LedgerEvent[]): Promise<void> {
    this.published += 1;
    const file = writeEvents(join(this.dir, `part${this.published}.jsonl`), events);
    await publishLedgerFile({ servers: NATS_URL, stream: this.stream, subjectPrefix: this.subjectPrefix, file, logger: silentLogger() });
  }

  async delete(): Promise<void> {
    const connection = await connect({ servers: NATS_URL });
    await (await jetstreamManager(connection)).streams.delete(this.stream).catch(() => undefined);
    await connection.close();
  }
}
