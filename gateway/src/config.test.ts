import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError } from '@ledger-api/config';
import { gatewayConfigSchema, parseGatewayConfig } from './config';
import { configuredUpstreams } from './upstreams';

describe('gateway configuration', () => {
  it('has defaults for everything and no service configured', () => {
    const config = parseGatewayConfig({});
    expect(config).toEqual({
      PORT: 4003,
      HOST: '0.0.0.0',
      ADMIN_PORT: 9003,
      RATE_LIMIT_PER_MINUTE: 6000,
      RATE_LIMIT_SYNC_MS: 1_000,
      PROXY_TIMEOUT_MS: 10_000,
      UPSTREAM_MAX_SOCKETS: 64,
      UPSTREAM_IDLE_TIMEOUT_MS: 30_000,
      UPSTREAM_SOCKET_MAX_AGE_MS: 10_000,
      UPSTREAM_SOCKET_MAX_REQUESTS: 1_000,
      UPSTREAM_RECHECK_MS: 500,
      REQUEST_TIMEOUT_MS: 10_000,
      KEEP_ALIVE_TIMEOUT_MS: 65_000,
      READY_TIMEOUT_MS: 2_000,
      TRUST_PROXY: false,
      EDGE_CACHE_MB: 64,
      EVENTS_BUFFER: 1_000,
      EVENTS_MAX_PER_CLIENT: 8,
      EVENTS_MAX_STREAMS: 10_000,
      EVENTS_KEEP_ALIVE_MS: 15_000,
      FEED_RECONNECT_MS: 250,
      SHUTDOWN_DELAY_MS: 0,
      SHUTDOWN_DRAIN_MS: 1_000,
      LOG_LEVEL: 'info',
    });
    expect(configuredUpstreams(config)).toEqual([]);
  });

  it('reads every setting, treating empty values as unset', () => {
    const config = parseGatewayConfig({
      PORT: '8080',
      ADMIN_PORT: '9090',
      GUARDIAN_URL: 'http://guardian-1:4000/, http://guardian-2:4000',
      GUARDIAN_ADMIN_URL: 'http://guardian-1:9090/, http://guardian-2:9090',
      NFT_BASE_URL: '',
      NFT_EXCHANGE_URL: 'https://exchange.internal',
      REDIS_URL: 'redis://127.0.0.1:6379/2',
      RATE_LIMIT_PER_MINUTE: '0',
      RATE_LIMIT_SYNC_MS: '250',
      UPSTREAM_MAX_SOCKETS: '16',
      UPSTREAM_IDLE_TIMEOUT_MS: '5000',
      UPSTREAM_SOCKET_MAX_AGE_MS: '0',
      UPSTREAM_SOCKET_MAX_REQUESTS: '250',
      TRUST_PROXY: 'true',
      LOG_LEVEL: 'debug',
    });
    expect(config).toMatchObject({
      PORT: 8080,
      ADMIN_PORT: 9090,
      RATE_LIMIT_PER_MINUTE: 0,
      RATE_LIMIT_SYNC_MS: 250,
      UPSTREAM_MAX_SOCKETS: 16,
      UPSTREAM_IDLE_TIMEOUT_MS: 5000,
      UPSTREAM_SOCKET_MAX_AGE_MS: 0,
      UPSTREAM_SOCKET_MAX_REQUESTS: 250,
      TRUST_PROXY: true,
      LOG_LEVEL: 'debug',
    });
    expect(config.NFT_BASE_URL).toBeUndefined();
    expect(configuredUpstreams(config)).toEqual([
      {
        service: 'guardian',
        baseUrls: ['http://guardian-1:4000', 'http://guardian-2:4000'],
        adminUrls: ['http://guardian-1:9090', 'http://guardian-2:9090'],
      },
      { service: 'nft-exchange', baseUrls: ['https://exchange.internal'], adminUrls: [] },
    ]);
  });

  it('takes the trusted proxies as Express does: a flag, a hop count or addresses and subnets', () => {
    const trusted = (TRUST_PROXY: string) => parseGatewayConfig({ TRUST_PROXY }).TRUST_PROXY;
    expect(trusted('false')).toBe(false);
    expect(trusted('true')).toBe(true);
    expect(trusted('1')).toBe(1);
    expect(trusted('10.0.0.0/8, loopback,fd00::1')).toEqual(['10.0.0.0/8', 'loopback', 'fd00::1']);
    for (const wrong of ['yes', '10.0.0.0/33', '10.0.0.300', 'proxy.internal', '1.5']) {
      expect(() => trusted(wrong)).toThrow(ConfigError);
    }
  });

  it('lists every problem at once', () => {
    let error: unknown;
    try {
      parseGatewayConfig({
        PORT: '99999',
        GUARDIAN_URL: 'http://guardian:4000,guardian-2:4000',
        REDIS_URL: 'http://redis',
        PROXY_TIMEOUT_MS: '0',
        REQUEST_TIMEOUT_MS: '-1',
        RATE_LIMIT_SYNC_MS: '5',
        UPSTREAM_MAX_SOCKETS: '0',
        TRUST_PROXY: 'yes',
      });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.map((problem) => problem.split(':')[0]);
    expect(problems.sort()).toEqual([
      'GUARDIAN_URL',
      'PORT',
      'PROXY_TIMEOUT_MS',
      'RATE_LIMIT_SYNC_MS',
      'REDIS_URL',
      'REQUEST_TIMEOUT_MS',
      'TRUST_PROXY',
      'UPSTREAM_MAX_SOCKETS',
    ]);
  });
});

describe('the documentation of the gateway configuration', () => {
  const variables = Object.keys(gatewayConfigSchema.shape);
  const section = (file: string, from: string, to: string) => {
    const text = readFileSync(resolve(__dirname, '../..', file), 'utf8');
    const start = text.indexOf(from);
    return text.slice(start, text.indexOf(to, start));
  };

  it.each([
    ['README.md', 'Gateway (`gateway/dist/index.js`)', '`npm start` also reads'],
    ['deploy/README.md', 'Gateway (`gateway/src/config.ts`)', 'Every process validates'],
  ])('names every variable in %s', (file, from, to) => {
    const documented = section(file, from, to);
    expect(documented.length).toBeGreaterThan(0);
    expect(variables.filter((variable) => !documented.includes(`\`${variable}\``))).toEqual([]);
  });
});
