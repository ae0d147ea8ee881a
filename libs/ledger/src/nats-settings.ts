import { env } from '@ledger-api/config';
import type { ConnectionOptions } from '@nats-io/transport-node';
import { z } from 'zod';
import { DEFAULT_STREAM_SETTINGS, type LedgerStreamSettings } from './stream';

/**
 * The environment every process that talks to NATS reads besides NATS_URL, for the
 * config schema of each (a service's, the publisher's).
 */
export const natsEnvironment = {
  // Sign-in when the NATS server asks for one: a user and its password, or a token. Keep them in a
  // Secret (deploy/README.md); a URL's user:password@ is not used by the NATS client.
  NATS_USER: z.string().optional(),
  NATS_PASSWORD: z.string().optional(),
  NATS_TOKEN: z.string().optional(),
  // The ledger stream as the first process to find it missing creates it (an existing stream keeps its
  // settings, and a difference is logged): its copies in a JetStream cluster, 1, 3 or 5 ...
  LEDGER_STREAM_REPLICAS: env.int(DEFAULT_STREAM_SETTINGS.replicas, 1, 5),
  // ... the megabytes it keeps, 0 for no limit ...
  LEDGER_STREAM_MAX_MB: env.int(0, 0),
  // ... and how many days it keeps an event, 0 for ever. A limit drops the oldest events (retention
  // "limits"), and a read model rebuilt afterwards lacks them: set one only with the stream backed up.
  LEDGER_STREAM_MAX_AGE_DAYS: env.int(0, 0),
};

type NatsEnvironment = z.output<z.ZodObject<typeof natsEnvironment>>;

/** How a process signs in to NATS: what connect() takes besides the servers. */
export type NatsCredentials = Pick<ConnectionOptions, 'user' | 'pass' | 'token'>;

export function natsCredentials(config: NatsEnvironment): NatsCredentials {
  return {
    ...(config.NATS_USER !== undefined && { user: config.NATS_USER }),
    ...(config.NATS_PASSWORD !== undefined && { pass: config.NATS_PASSWORD }),
    ...(config.NATS_TOKEN !== undefined && { token: config.NATS_TOKEN }),
  };
}

export function ledgerStreamSettings(config: NatsEnvironment): LedgerStreamSettings {
  return {
    replicas: config.LEDGER_STREAM_REPLICAS,
    maxBytes: config.LEDGER_STREAM_MAX_MB === 0 ? -1 : config.LEDGER_STREAM_MAX_MB * 1024 * 1024,
    maxAgeSeconds: config.LEDGER_STREAM_MAX_AGE_DAYS * 86_400,
  };
}
