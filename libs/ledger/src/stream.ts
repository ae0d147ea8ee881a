import { JetStreamApiCodes, JetStreamApiError, RetentionPolicy, StorageType, type JetStreamManager, type StreamConfig } from '@nats-io/jetstream';
import { nanos } from '@nats-io/transport-node';
import type { Logger } from '@ledger-api/observability';
import type { LedgerEventKind } from './types';

export const DEFAULT_LEDGER_STREAM = 'LEDGER';
/** Events go to `<prefix>.applied` and `<prefix>.reverted`; consumers filter on `<prefix>.>`. */
export const DEFAULT_SUBJECT_PREFIX = 'ledger.block';

export function ledgerSubject(prefix: string, kind: LedgerEventKind): string {
  return `${prefix}.${kind}`;
}

export function isJetStreamApiError(error: unknown, code: number): boolean {
  return error instanceof JetStreamApiError && error.code === code;
}

/** How the ledger stream is kept: copies in a JetStream cluster, and the limits past which its oldest events go. */
export interface LedgerStreamSettings {
  replicas: number;
  /** Bytes kept, -1 for no limit. */
  maxBytes: number;
  /** How long an event is kept, 0 for ever. */
  maxAgeSeconds: number;
}

/** One copy, every event kept for ever: a read model can always be rebuilt from the stream. */
export const DEFAULT_STREAM_SETTINGS: LedgerStreamSettings = { replicas: 1, maxBytes: -1, maxAgeSeconds: 0 };

function streamConfig(settings: LedgerStreamSettings): Pick<StreamConfig, 'retention' | 'storage' | 'num_replicas' | 'max_bytes' | 'max_age'> {
  // Limits, not interest or work-queue retention: every projector, and every rebuild, reads the whole stream.
  return {
    retention: RetentionPolicy.Limits,
    storage: StorageType.File,
    num_replicas: settings.replicas,
    max_bytes: settings.maxBytes,
    max_age: nanos(settings.maxAgeSeconds * 1000),
  };
}

/** What an existing stream has other than the settings asked for: they apply to a stream being created only. */
function differences(config: StreamConfig, wanted: ReturnType<typeof streamConfig>): string[] {
  return (Object.keys(wanted) as (keyof typeof wanted)[])
    .filter((key) => config[key] !== wanted[key])
    .map((key) => `${key} ${config[key]}, not ${wanted[key]}`);
}

/**
 * Creates the ledger stream unless it exists; safe when several processes start at once. An existing
 * stream is left as it is (changing its copies or limits is an operator's decision, `nats stream edit`);
 * where it differs from `settings`, `logger` is told.
 */
export async function ensureLedgerStream(
  jsm: JetStreamManager,
  stream: string,
  subjectPrefix: string,
  settings: LedgerStreamSettings = DEFAULT_STREAM_SETTINGS,
  logger?: Logger,
): Promise<void> {
  const wanted = streamConfig(settings);
  try {
    const found = differences((await jsm.streams.info(stream)).config, wanted);
    if (found.length > 0) logger?.warn({ stream, differences: found }, 'the ledger stream exists with other settings than configured; left as it is');
    return;
  } catch (error) {
    if (!isJetStreamApiError(error, JetStreamApiCodes.StreamNotFound)) throw error;
  }
  try {
    await jsm.streams.add({ name: stream, subjects: [ledgerSubject(subjectPrefix, 'applied'), ledgerSubject(subjectPrefix, 'reverted')], ...wanted });
  } catch (error) {
    // Another process may have created it between the lookup and the add.
    await jsm.streams.info(stream).catch(() => Promise.reject(error));
  }
}
