import { join } from 'node:path';
import { areaNamed, type AreaName } from '@ledger-api/config';
import { writeDemoLedger } from '@ledger-api/demo-ledger';
import { waitFor } from '@ledger-api/test-kit';
import { tempDir } from '../support/ledger-files';
import { startLoad, type Sample } from '../support/load';
import { freeAddress, isReady, startProcess, type ProcessAddress, type RunningProcess } from '../support/processes';

/**
 * A rolling restart as clients meet it: an area runs two replicas behind the gateway, and
 * keep-alive clients ask through it while the replicas are restarted one after the other
 * (SIGTERM, exit, start again, ready). The gateway sends what a stopping replica refuses to
 * the other one, and nothing to a restarted one until it serves: no request fails.
 */
const AREAS: { area: AreaName; paths: string[] }[] = [
  { area: 'guardian', paths: ['/api/guardian/groups?limit=5', '/api/guardian/users?limit=5'] },
  { area: 'nft-base', paths: ['/api/nft/collections?limit=5', '/api/nft/assets?limit=5&orderBy=fee:desc'] },
  { area: 'nft-exchange', paths: ['/api/nft/exchange/auctions?limit=5', '/api/nft/exchange/trades?limit=5'] },
];

interface Replica {
  area: string;
  address: ProcessAddress;
  process: RunningProcess;
}

const running: RunningProcess[] = [];
let ledgerFile: string;

beforeAll(() => {
  ledgerFile = join(tempDir('rolling'), 'ledger.jsonl');
  writeDemoLedger(ledgerFile, { blockCount: 80 });
});

afterEach(async () => {
  await Promise.all(running.splice(0).map((child) => child.stop('SIGKILL')));
});

/** A replica of the area replaying the ledger into a store of its own, ready once it has applied it all. */
async function startReplica(area: string, address: ProcessAddress): Promise<Replica> {
  const process = startProcess(`services/${area}/dist/main.js`, { ...address.env, LEDGER_FILE: ledgerFile });
  running.push(process);
  await waitFor(() => isReady(address.adminUrl), `the ${area} replica on ${address.url}`, 60_000, 100);
  return { area, address, process };
}

/** Stops the replica, starts it again on its ports, and waits until it is ready: when it was down, and how it exited. */
async function restart(replica: Replica): Promise<{ from: number; to: number; code: number | null }> {
  const from = performance.now();
  const code = await replica.process.stop('SIGTERM');
  Object.assign(replica, await startReplica(replica.area, replica.address));
  return { from, to: performance.now(), code };
}

const failures = (samples: Sample[]) => samples.filter((sample) => sample.status !== 200).map(({ path, status, body }) => ({ path, status, body }));

it.each(AREAS)('restarts both $area replicas one after the other with no request failing', async ({ area, paths }) => {
  const { urlVariable, adminUrlVariable } = areaNamed(area);
  const replicas = await Promise.all([startReplica(area, await freeAddress()), startReplica(area, await freeAddress())]);
  const gatewayAddress = await freeAddress();
  const gateway = gatewayAddress.url;
  running.push(
    startProcess('gateway/dist/index.js', {
      ...gatewayAddress.env,
      [urlVariable]: replicas.map(({ address }) => address.url).join(','),
      [adminUrlVariable]: replicas.map(({ address }) => address.adminUrl).join(','),
      RATE_LIMIT_PER_MINUTE: '0',
      // Every request goes to a replica: none is answered at the edge.
      EDGE_CACHE_MB: '0',
      UPSTREAM_RECHECK_MS: '50',
    }),
  );
  await waitFor(() => isReady(gatewayAddress.adminUrl), 'the gateway', 30_000, 100);

  const load = startLoad(gateway, paths, 4);
  await waitFor(() => load.samples.length >= 50, 'answers before the rollout');
  const restarts = [];
  for (const replica of replicas) restarts.push(await restart(replica));
  const answeredBefore = load.samples.length;
  await waitFor(() => load.samples.length >= answeredBefore + 50, 'answers after the rollout');
  const samples = await load.stop();

  expect(failures(samples)).toEqual([]);
  expect(restarts.map(({ code }) => code)).toEqual([0, 0]);
  // Each replica was down for a while, and the other answered meanwhile.
  for (const { from, to } of restarts) {
    expect(samples.filter(({ sentAt }) => sentAt > from && sentAt < to).length).toBeGreaterThan(10);
  }
});
