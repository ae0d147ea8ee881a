import { randomBytes } from 'node:crypto';
import { loadConfig } from '@ledger-api/config';
import { NatsKvLease } from '@ledger-api/ledger';
import { countedBy, publishEvents, readModel, senderCountProjection, TestLedger, testPublicKey } from '@ledger-api/ledger/testing';
import { silentLogger } from '@ledger-api/observability';
import { waitFor } from '@ledger-api/test-kit';
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { serviceConfigSchema } from './config';
import { ledgerInput, perProcessConsumerName, projectorLeaseKey, sharedConsumerName } from './ledger-input';
import { startService, type RunningService } from './service';
import { senderCountArea } from './testing/sender-count-area';

const NATS = 'nats://127.0.0.1:4222';

const area = senderCountArea('replicas');

function configOf(env: Record<string, string>) {
  return {
    ...loadConfig(serviceConfigSchema({ area: area.area, port: area.defaultPort, adminPort: area.defaultAdminPort }), { HOST: '127.0.0.1', ...env }),
    PORT: 0,
    ADMIN_PORT: 0,
  };
}

describe('ledgerInput', () => {
  const config = configOf({ NATS_URL: NATS });

  it('gives projectors over a shared store the area durable consumer under a lease', () => {
    expect(ledgerInput(area.area, config, 'mongodb', silentLogger()).lease).toBeInstanceOf(NatsKvLease);
  });

  it('gives a read model rebuilt in another database a consumer and a lease of its own', () => {
    expect(sharedConsumerName('nft-base', 'ledger_nft_base')).toBe('nft-base-projector');
    expect(sharedConsumerName('nft-base', 'ledger_nft_base_v2')).toBe('nft-base-projector-ledger_nft_base_v2');
    expect(projectorLeaseKey('LEDGER', 'nft-base', 'ledger_nft_base')).toBe('LEDGER.nft-base-projector');
    expect(projectorLeaseKey('LEDGER', 'nft-base', 'ledger_nft_base_v2')).toBe('LEDGER.nft-base-projector-ledger_nft_base_v2');
  });

  it('gives a process with an embedded store no lease and a consumer name of its own', () => {
    expect(ledgerInput(area.area, config, 'embedded', silentLogger()).lease).toBeUndefined();
    expect(perProcessConsumerName('nft-base')).toMatch(/^nft-base-[\w-]+-\d+-[0-9a-f]{6}$/);
    expect(perProcessConsumerName('nft-base')).not.toBe(perProcessConsumerName('nft-base'));
  });
});

describe('ROLE=all replicas on the embedded store over one NATS', () => {
  const run = `${process.pid}_${randomBytes(4).toString('hex')}`;
  const names = { stream: `LEDGER_REPLICAS_${run}`, subjectPrefix: `test.${run}.ledger.block` };
  const services: RunningService[] = [];

  afterAll(async () => {
    await Promise.all(services.map((service) => service.close()));
    const connection = await connect({ servers: NATS });
    await (await jetstreamManager(connection)).streams.delete(names.stream).catch(() => undefined);
    await connection.close();
  });

  it('both catch up with equal read models', async () => {
    const ledger = new TestLedger();
    for (let i = 0; i < 4; i += 1) ledger.block([countedBy(ledger, testPublicKey(`sender${i % 2}`))]);
    const events = ledger.take();
    await publishEvents({ servers: NATS, ...names, events: events.slice(0, 2), form: 'envelope' });
    const config = configOf({ NATS_URL: NATS, LEDGER_STREAM: names.stream, LEDGER_SUBJECT_PREFIX: names.subjectPrefix });
    services.push(await startService(area, config, silentLogger()), await startService(area, config, silentLogger()));
    await publishEvents({ servers: NATS, ...names, events: events.slice(2), form: 'envelope' });

    for (const { projector } of services) {
      await waitFor(() => projector?.ready() === true && projector.status().position.height === 4, 'each replica to catch up at height 4');
    }
    const [one, two] = await Promise.all(services.map(({ store }) => readModel(store, senderCountProjection)));
    expect(one).toEqual(two);
    expect(services.map(({ projector }) => projector?.status().state)).toEqual(['caught-up', 'caught-up']);
  });
});
