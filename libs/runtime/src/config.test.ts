import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError, loadConfig } from '@ledger-api/config';
import { serviceConfigSchema } from './config';

const schema = serviceConfigSchema({ area: 'nft-base', port: 4102, adminPort: 9102 });

describe('service configuration', () => {
  it('has working defaults for an embedded run', () => {
    expect(loadConfig(schema, {})).toMatchObject({
      ROLE: 'all',
      PORT: 4102,
      ADMIN_PORT: 9102,
      MONGO_DB: 'ledger_nft_base',
      LEDGER_STREAM: 'LEDGER',
      NETWORK_VERSION: 23,
      REQUEST_TIMEOUT_MS: 10_000,
    });
  });

  it('accepts MongoDB multi-host connection strings', () => {
    const config = loadConfig(schema, { ROLE: 'api', MONGO_URL: 'mongodb://a:27017,b:27017/?replicaSet=rs0' });
    expect(config.MONGO_URL).toBe('mongodb://a:27017,b:27017/?replicaSet=rs0');
  });

  it('needs no MONGO_URL with ROLE=api when the caller hands the service its store', () => {
    const given = serviceConfigSchema({ area: 'nft-base', port: 4102, adminPort: 9102, storeGiven: true });
    const config = loadConfig(given, { ROLE: 'api' });
    expect(config.ROLE).toBe('api');
    expect(config.MONGO_URL).toBeUndefined();
    expect(() => loadConfig(schema, { ROLE: 'api' })).toThrow(ConfigError);
  });

  it('lists every problem at once', () => {
    let problems: string[] = [];
    try {
      loadConfig(schema, { ROLE: 'api', PORT: 'eighty', NETWORK_VERSION: '300', NATS_URL: 'nats://x', LEDGER_FILE: '/tmp/x' });
    } catch (error) {
      problems = (error as ConfigError).problems;
    }
    expect(problems).toEqual([
      expect.stringMatching(/^PORT: /),
      expect.stringMatching(/^NETWORK_VERSION: /),
      'MONGO_URL: is required with ROLE=api: the embedded store lives inside one process',
      'LEDGER_FILE: set either NATS_URL or LEDGER_FILE, not both',
    ]);
  });
});

describe('the documentation of the service configuration', () => {
  const variables = Object.keys(schema.shape);
  const section = (file: string, from: string, to: string) => {
    const text = readFileSync(resolve(__dirname, '../../..', file), 'utf8');
    return text.slice(text.indexOf(from), text.indexOf(to, text.indexOf(from)));
  };

  it.each([
    ['README.md', 'Services (`services/*/dist/main.js`)', 'Gateway (`gateway/dist/index.js`)'],
    ['deploy/README.md', 'Services (`libs/runtime/src/config.ts`)', 'Gateway (`gateway/src/config.ts`)'],
  ])('names every variable in %s', (file, from, to) => {
    const documented = section(file, from, to);
    expect(documented.length).toBeGreaterThan(0);
    expect(variables.filter((variable) => !documented.includes(`\`${variable}\``))).toEqual([]);
  });
});
