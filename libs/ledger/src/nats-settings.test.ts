import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '@ledger-api/config';
import { nkeys } from '@nats-io/transport-node';
import { z } from 'zod';
import { checkNatsEnvironment, natsCredentials, natsEnvironment } from './nats-settings';

const schema = z.object(natsEnvironment).superRefine(checkNatsEnvironment);
const dir = mkdtempSync(join(tmpdir(), 'nats-settings-'));
const file = (name: string, text = '') => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

/** A creds file as `nsc` writes it: a user JWT, then the user's NKey seed. */
function credsText(jwt: string, seed: Uint8Array): string {
  const block = (title: string, body: string) => `-----BEGIN ${title}-----\n${body}\n------END ${title}------\n`;
  return `${block('NATS USER JWT', jwt)}\n${block('USER NKEY SEED', new TextDecoder().decode(seed))}`;
}

describe('the NATS sign-in and TLS of a process', () => {
  it('signs in with a user and password, or a token', () => {
    expect(natsCredentials(loadConfig(schema, { NATS_USER: 'ledger', NATS_PASSWORD: 'secret' }))).toEqual({ user: 'ledger', pass: 'secret' });
    expect(natsCredentials(loadConfig(schema, { NATS_TOKEN: 's3cr3t' }))).toEqual({ token: 's3cr3t' });
    expect(natsCredentials(loadConfig(schema, {}))).toEqual({});
  });

  it('signs in with the creds file as it reads at each connect, so a rotated file is taken up', () => {
    const path = file('user.creds');
    const { authenticator } = natsCredentials(loadConfig(schema, { NATS_CREDS_FILE: path }));
    for (const jwt of ['eyJ0eXAiOiJKV1QifQ.first', 'eyJ0eXAiOiJKV1QifQ.rotated']) {
      const user = nkeys.createUser();
      writeFileSync(path, credsText(jwt, user.getSeed()));
      expect((authenticator as (nonce?: string) => unknown)('nonce')).toMatchObject({ jwt, nkey: user.getPublicKey(), sig: expect.any(String) });
    }
  });

  it('requires TLS with the CA and the client certificate given', () => {
    const [ca, cert, key] = [file('ca.pem'), file('client.pem'), file('client-key.pem')];
    expect(natsCredentials(loadConfig(schema, { NATS_TLS_CA_FILE: ca }))).toEqual({ tls: { caFile: ca } });
    expect(natsCredentials(loadConfig(schema, { NATS_TLS_CA_FILE: ca, NATS_TLS_CERT_FILE: cert, NATS_TLS_KEY_FILE: key }))).toEqual({
      tls: { caFile: ca, certFile: cert, keyFile: key },
    });
  });

  it('refuses to start with a file that is not there, or a certificate without its key', () => {
    const problems = (env: Record<string, string>) => {
      try {
        loadConfig(schema, env);
        return [];
      } catch (error) {
        return (error as ConfigError).problems;
      }
    };
    expect(problems({ NATS_CREDS_FILE: join(dir, 'missing.creds') })).toEqual(['NATS_CREDS_FILE: must name a readable file']);
    expect(problems({ NATS_TLS_CERT_FILE: file('lonely.pem') })).toEqual([
      'NATS_TLS_KEY_FILE: a client certificate takes both NATS_TLS_CERT_FILE and NATS_TLS_KEY_FILE',
    ]);
  });
});
