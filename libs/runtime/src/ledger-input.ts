import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import {
  FileLedgerSource,
  JetStreamLedgerSource,
  ledgerStreamSettings,
  natsCredentials,
  NatsKvLease,
  type LedgerSource,
  type ProjectorLease,
} from '@ledger-api/ledger';
import type { Logger } from '@ledger-api/observability';
import type { Store } from '@ledger-api/store';
import { defaultDatabaseName, type ServiceConfig } from './config';

export interface LedgerInput {
  source?: LedgerSource;
  /** Set when projectors share the read model, so only one of them writes it at a time. */
  lease?: ProjectorLease;
}

/**
 * The durable consumer the projectors of one shared read model take turns on.
 * A read model in another database than the area's default (one being rebuilt
 * beside the serving one) has a consumer, and so a lease, of its own: its
 * projector replays while the serving one goes on.
 */
export function sharedConsumerName(area: string, database: string): string {
  return database === defaultDatabaseName(area) ? `${area}-projector` : `${area}-projector-${database}`;
}

/** The key of a shared read model's projector lease in the NATS KV bucket of leases. */
export function projectorLeaseKey(stream: string, area: string, database: string): string {
  return `${stream}.${sharedConsumerName(area, database)}`;
}

/** Names a consumer this source alone reads: the process, and a suffix for several services in one process. */
export function perProcessConsumerName(area: string): string {
  const host = hostname().replace(/[^\w-]/g, '_');
  return `${area}-${host}-${process.pid}-${randomBytes(3).toString('hex')}`;
}

/**
 * Where a projector reads the ledger. Over NATS, the store decides how: an
 * embedded store is this process's own read model, so it reads every event
 * through a consumer of its own and replicas scale out side by side; a shared
 * store (MongoDB) has one durable consumer per area, read by whichever
 * projector holds the area's lease while the others stand by.
 */
export function ledgerInput(area: string, config: ServiceConfig, storeKind: Store['kind'], logger: Logger): LedgerInput {
  if (config.NATS_URL) {
    const shared = storeKind !== 'embedded';
    const consumerName = shared ? sharedConsumerName(area, config.MONGO_DB) : perProcessConsumerName(area);
    const credentials = natsCredentials(config);
    const source = new JetStreamLedgerSource({
      servers: config.NATS_URL,
      credentials,
      streamSettings: ledgerStreamSettings(config),
      stream: config.LEDGER_STREAM,
      subjectPrefix: config.LEDGER_SUBJECT_PREFIX,
      consumerName,
      perProcess: !shared,
      logger,
    });
    if (!shared) return { source };
    const key = projectorLeaseKey(config.LEDGER_STREAM, area, config.MONGO_DB);
    const replicas = config.LEDGER_STREAM_REPLICAS;
    return { source, lease: new NatsKvLease({ servers: config.NATS_URL, credentials, key, ttlMs: config.PROJECTOR_LEASE_TTL_MS, replicas, logger }) };
  }
  if (config.LEDGER_FILE) return { source: new FileLedgerSource(config.LEDGER_FILE) };
  logger.warn('no NATS_URL or LEDGER_FILE: serving an empty ledger');
  return {};
}
