import { join } from 'node:path';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { publishLedgerFile, type LedgerEvent } from '@ledger-api/ledger';
import { generateDemoLedger } from '@ledger-api/demo-ledger';
import { silentLogger } from '@ledger-api/observability';
import { freeAddress, getJson, isReady, startProcess, type RunningProcess } from '../support/processes';
import { waitFor } from '@ledger-api/test-kit';
import { groupBlock, tempDir, topBlock, writeEvents } from '../support/ledger-files';

/**
 * The ledger published to NATS JetStream while the services run: blocks show up
 * through the gateway, a revert takes them back, and a projector killed
 * mid-stream ends in the same state as an uninterrupted replay of the file.
 */
const NATS_URL = 'nats://127.0.0.1:4222';
const stream = `E2E_${process.pid}_${Date.now()}`;
const subjectPrefix = `e2e.${process.pid}.${Date.now()}`;
const dir = tempDir('jetstream');
const events: LedgerEvent[] = generateDemoLedger({ seed: 11 });
const running: RunningProcess[] = [];

const SNAPSHOT_PATHS = [
  '/guardian/groups',
  '/guardian/users?limit=100&page=1',
  '/nft/collections',
  '/nft/assets?limit=100&page=3',
  '/nft/assets?orderBy=fee:desc&limit=50',
  '/nft/burns?limit=100',
  '/nft/transfers?orderBy=blockHeight:desc&limit=100',
];

async function startServices(env: Record<string, string>) {
  const [guardian, base] = await Promise.all([freeAddress(), freeAddress()]);
  running.push(startProcess('services/guardian/dist/main.js', { ...env, ...guardian.env }));
  running.push(startProcess('services/nft-base/dist/main.js', { ...env, ...base.env }));
  return { guardian, base };
}

async function snapshot(urls: { guardian: string; base: string }) {
  return Promise.all(SNAPSHOT_PATHS.map(async (path) => (await getJson(`${path.startsWith('/guardian') ? urls.guardian : urls.base}${path}`)).body));
}

async function publish(name: string, batch: LedgerEvent[]) {
  await publishLedgerFile({ servers: NATS_URL, stream, subjectPrefix, file: writeEvents(join(dir, name), batch), logger: silentLogger() });
}

async function heightOf(url: string): Promise<number> {
  return Number((await getJson(`${url}/guardian/configurations`)).headers.get('x-block-height'));
}

afterAll(async () => {
  await Promise.all(running.map((process) => process.stop()));
  const connection = await connect({ servers: NATS_URL });
  await (await jetstreamManager(connection)).streams.delete(stream).catch(() => undefined);
  await connection.close();
});

it('projects the published ledger, reverts blocks and survives a killed projector', async () => {
  const natsEnv = { NATS_URL, LEDGER_STREAM: stream, LEDGER_SUBJECT_PREFIX: subjectPrefix, REDIS_URL: 'redis://127.0.0.1:6379' };
  const third = Math.floor(events.length / 3);
  await publish('part1.jsonl', events.slice(0, third));
  const services = await startServices(natsEnv);
  const live = { guardian: services.guardian.url, base: services.base.url };
  const gatewayAddress = await freeAddress();
  const gateway = startProcess('gateway/dist/index.js', { ...gatewayAddress.env, GUARDIAN_URL: live.guardian, NFT_BASE_URL: live.base });
  running.push(gateway);
  const api = `${gatewayAddress.url}/api`;
  const partOneTop = topBlock(events.slice(0, third)).height;
  await waitFor(async () => (await heightOf(api)) === partOneTop, 'part one through the gateway', 60_000, 200);

  // Kill the guardian projector without a chance to clean up while part two streams in, then restart it.
  const publishing = publish('part2.jsonl', events.slice(third, 2 * third));
  await running[0].stop('SIGKILL');
  await publishing;
  running[0] = startProcess('services/guardian/dist/main.js', { ...natsEnv, ...services.guardian.env });
  await publish('part3.jsonl', events.slice(2 * third));
  const top = topBlock(events);
  await waitFor(
    async () => (await heightOf(live.guardian)) === top.height && (await isReady(services.base.adminUrl)),
    'the whole ledger',
    60_000,
    200,
  );

  const reference = await startServices({ LEDGER_FILE: writeEvents(join(dir, 'all.jsonl'), events) });
  await waitFor(
    async () => (await isReady(reference.guardian.adminUrl)) && (await isReady(reference.base.adminUrl)),
    'the reference replay',
    60_000,
    200,
  );
  expect(await snapshot(live)).toEqual(await snapshot({ guardian: reference.guardian.url, base: reference.base.url }));

  // One more block arrives and is then taken back.
  const before = await getJson(`${api}/guardian/groups?limit=100`);
  const extra = groupBlock(top, 'e2e-transient-group');
  await publish('extra.jsonl', [{ event: 'block.applied', block: extra }]);
  await waitFor(async () => (await getJson(`${api}/guardian/groups/e2e-transient-group`)).status === 200, 'the extra block', 60_000, 200);
  await publish('revert.jsonl', [{ event: 'block.reverted', block: { id: extra.id, height: extra.height } }]);
  await waitFor(async () => (await getJson(`${api}/guardian/groups/e2e-transient-group`)).status === 404, 'the revert', 60_000, 200);
  const after = await getJson(`${api}/guardian/groups?limit=100`);
  expect(after.body).toEqual(before.body);
  expect(after.headers.get('x-block-height')).toBe(String(top.height));
  expect(await isReady(services.guardian.adminUrl)).toBe(true);
}, 240_000);
