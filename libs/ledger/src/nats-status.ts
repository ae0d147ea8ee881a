import { JetStreamApiCodes, jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import { Kvm, type KV } from '@nats-io/kv';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { DEFAULT_LEASE_BUCKET } from './lease/nats-kv-lease';
import type { NatsCredentials } from './nats-settings';
import { isJetStreamApiError } from './stream';

/** A consumer of the ledger stream and the events it holds not handled yet (undelivered or unacknowledged). */
export interface ConsumerBacklog {
  name: string;
  pending: number;
}

/**
 * Reads, and never changes, what projectors keep in NATS: the consumers of a
 * ledger stream and the projector leases. For operators' status commands.
 */
export class LedgerNatsStatus {
  private constructor(
    private readonly connection: NatsConnection,
    private readonly jsm: JetStreamManager,
    private readonly stream: string,
  ) {}

  static async connect(servers: string | string[], stream: string, credentials: NatsCredentials = {}): Promise<LedgerNatsStatus> {
    const connection = await connect({ servers, ...credentials, name: 'ledger-status', timeout: 5_000 });
    return new LedgerNatsStatus(connection, await jetstreamManager(connection), stream);
  }

  /** The stream's consumers whose names start with `prefix`, by name; none while the stream does not exist. */
  async consumers(prefix: string): Promise<ConsumerBacklog[]> {
    const found: ConsumerBacklog[] = [];
    try {
      for await (const info of this.jsm.consumers.list(this.stream)) {
        if (info.name.startsWith(prefix)) found.push({ name: info.name, pending: info.num_pending + info.num_ack_pending });
      }
    } catch (error) {
      if (!isJetStreamApiError(error, JetStreamApiCodes.StreamNotFound)) throw error;
    }
    return found.sort((a, b) => a.name.localeCompare(b.name));
  }

  /** Who holds the lease under `key` (see NatsKvLease), or null when nobody does. */
  async leaseHolder(key: string, bucket = DEFAULT_LEASE_BUCKET): Promise<string | null> {
    const entry = await (await this.leases(bucket))?.get(key);
    return entry?.operation === 'PUT' ? entry.string() : null;
  }

  close(): Promise<void> {
    return this.connection.close();
  }

  /** Undefined before any projector created the bucket. */
  private async leases(bucket: string): Promise<KV | undefined> {
    try {
      const kv = await new Kvm(this.connection).open(bucket);
      await kv.status();
      return kv;
    } catch (error) {
      if (isJetStreamApiError(error, JetStreamApiCodes.StreamNotFound)) return undefined;
      throw error;
    }
  }
}
