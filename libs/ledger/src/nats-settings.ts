import { readFileSync } from 'node:fs';
import { env } from '@ledger-api/config';
import { credsAuthenticator, type ConnectionOptions } from '@nats-io/transport-node';
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
  // Or a NATS credentials file (a user JWT and its NKey seed, as `nsc` writes it); read again at each
  // reconnect, so a rotated file is taken up without a restart.
  NATS_CREDS_FILE: env.file().optional(),
  // TLS towards NATS: the CA that signed the server's certificate, when not a public one; setting it
  // (or a client certificate) makes the connection require TLS.
  NATS_TLS_CA_FILE: env.file().optional(),
  // A client certificate and its key, both or neither, for a server that verifies its clients.
  NATS_TLS_CERT_FILE: env.file().optional(),
  NATS_TLS_KEY_FILE: env.file().optional(),
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

/** Problems of the environment no single variable shows, for the superRefine of a schema that spreads natsEnvironment. */
export function checkNatsEnvironment(config: NatsEnvironment, ctx: z.RefinementCtx): void {
  if ((config.NATS_TLS_CERT_FILE === undefined) !== (config.NATS_TLS_KEY_FILE === undefined)) {
    const missing = config.NATS_TLS_CERT_FILE === undefined ? 'NATS_TLS_CERT_FILE' : 'NATS_TLS_KEY_FILE';
    ctx.addIssue({ code: 'custom', path: [missing], message: 'a client certificate takes both NATS_TLS_CERT_FILE and NATS_TLS_KEY_FILE' });
  }
}

/** How a process signs in to NATS and secures its connection: what connect() takes besides the servers. */
export type NatsCredentials = Pick<ConnectionOptions, 'user' | 'pass' | 'token' | 'authenticator' | 'tls'>;

export function natsCredentials(config: NatsEnvironment): NatsCredentials {
  const { NATS_CREDS_FILE: credsFile, NATS_TLS_CA_FILE: caFile, NATS_TLS_CERT_FILE: certFile, NATS_TLS_KEY_FILE: keyFile } = config;
  const tls = caFile !== undefined || certFile !== undefined;
  return {
    ...(config.NATS_USER !== undefined && { user: config.NATS_USER }),
    ...(config.NATS_PASSWORD !== undefined && { pass: config.NATS_PASSWORD }),
    ...(config.NATS_TOKEN !== undefined && { token: config.NATS_TOKEN }),
    ...(credsFile !== undefined && { authenticator: credsAuthenticator(() => readFileSync(credsFile)) }),
    ...(tls && { tls: { ...(caFile !== undefined && { caFile }), ...(certFile !== undefined && { certFile, keyFile }) } }),
  };
}

export function ledgerStreamSettings(config: NatsEnvironment): LedgerStreamSettings {
  return {
    replicas: config.LEDGER_STREAM_REPLICAS,
    maxBytes: config.LEDGER_STREAM_MAX_MB === 0 ? -1 : config.LEDGER_STREAM_MAX_MB * 1024 * 1024,
    maxAgeSeconds: config.LEDGER_STREAM_MAX_AGE_DAYS * 86_400,
  };
}
