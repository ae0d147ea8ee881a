import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { ROOT } from '../support/processes';

/**
 * deploy/compose.yaml and the image it runs: a first `up` seeds the stream and serves data,
 * a long replay does not fail it, and every health check asks the admin port. No Docker
 * engine runs where the tests do, so the file is read, not run.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- the compose file is read as the plain data it is */
const compose = parse(readFileSync(join(ROOT, 'deploy/compose.yaml'), 'utf8'), { merge: true }) as { services: Record<string, any> };
const dockerfile = readFileSync(join(ROOT, 'deploy/Dockerfile'), 'utf8');
const services = compose.services;
const fromImage = Object.entries(services).filter(([, service]) => service.image === 'ledger-api:latest' && !service.profiles);
const hours = (duration: string) => Number(/^(\d+)h$/.exec(duration)?.[1] ?? 0);

describe('the compose file', () => {
  it('runs every process of the image under the health check of the image, patient with a long replay', () => {
    expect(fromImage.map(([name]) => name).sort()).toEqual(
      ['gateway', ...['guardian', 'nft-base', 'nft-exchange'].flatMap((area) => [`${area}-api`, `${area}-projector`])].sort(),
    );
    for (const [, { healthcheck }] of fromImage) {
      expect(healthcheck).not.toHaveProperty('test');
      expect(hours(healthcheck.start_period)).toBeGreaterThanOrEqual(1);
      expect(healthcheck.start_interval).toMatch(/^\d+s$/);
    }
    expect(dockerfile).toMatch(/^ENV ADMIN_PORT=9090$/m);
    expect(dockerfile).toMatch(/^HEALTHCHECK .*\n\s+CMD \["node", "deploy\/healthcheck\.mjs"\]$/m);
    expect(dockerfile).toMatch(/^COPY deploy\/healthcheck\.mjs deploy\/$/m);
    expect(readFileSync(join(ROOT, 'deploy/Dockerfile.dockerignore'), 'utf8')).toMatch(/^!deploy\/healthcheck\.mjs$/m);
  });

  it('seeds an empty stream from the image before the projectors start, and starts each process after what it needs', () => {
    const seed = services['ledger-seed'];
    expect(seed.build).toMatchObject({ dockerfile: 'deploy/Dockerfile', target: 'demo-seed' });
    expect(seed.depends_on).toEqual({ nats: { condition: 'service_healthy' } });
    expect(dockerfile).toMatch(/^FROM \S+ AS demo-seed$/m);
    expect(/AS demo-seed\n[\s\S]*?\nCMD (.*)/.exec(dockerfile)?.[1]).toContain('publish.js --if-empty');
    for (const area of ['guardian', 'nft-base', 'nft-exchange']) {
      expect(services[`${area}-projector`].depends_on).toMatchObject({
        'ledger-seed': { condition: 'service_completed_successfully' },
        'mongo-init': { condition: 'service_completed_successfully' },
        nats: { condition: 'service_healthy' },
      });
      expect(services.gateway.depends_on[`${area}-api`]).toEqual({ condition: 'service_healthy' });
    }
  });

  it('has the gateway probe every area on its admin port', () => {
    const environment = services.gateway.environment as Record<string, string>;
    for (const area of ['GUARDIAN', 'NFT_BASE', 'NFT_EXCHANGE']) {
      expect(new URL(environment[`${area}_URL`]).hostname).toBe(new URL(environment[`${area}_ADMIN_URL`]).hostname);
      expect(new URL(environment[`${area}_ADMIN_URL`]).port).toBe('9090');
    }
  });

  it('says it needs Compose v2, on Docker Engine 25 or later for start_interval', () => {
    for (const file of ['deploy/compose.yaml', 'deploy/README.md']) {
      const text = readFileSync(join(ROOT, file), 'utf8').replace(/\s+/g, ' ');
      expect(text).toContain('Docker Compose v2');
      expect(text).toContain('Docker Engine 25 or later');
    }
  });
});
