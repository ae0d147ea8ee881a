import { join } from 'node:path';
import { writeDemoLedger } from '@ledger-api/demo-ledger';
import { waitFor } from '@ledger-api/test-kit';
import { steadyLoad } from '../support/keep-alive-load';
import { tempDir } from '../support/ledger-files';
import { freeAddress, isReady, startProcess, type ProcessAddress, type RunningProcess } from '../support/processes';
import { startTcpBalancer, type TcpBalancer } from '../support/tcp-balancer';

/**
 * An area scaled out and in behind one address that balances connections, not requests, as a
 * Kubernetes Service does, with the gateway at its defaults in front: a replica added under
 * steady load gets its share of the requests, and one removed (the balancer sends it no new
 * connection and it drains as on SIGTERM) fails none.
 */
const CLIENTS = 8;
const ROUTE = '/nft/collections';
/** How soon an added replica must take a quarter of the area's requests. */
const SPREAD_WITHIN_MS = 30_000;
/** Requests are counted over windows this long, each replica's share the part of the window's requests it answered. */
const WINDOW_MS = 2_000;

interface Replica extends ProcessAddress {
  process: RunningProcess;
}

const running: RunningProcess[] = [];
let balancer: TcpBalancer | undefined;
let ledgerFile: string;

beforeAll(() => {
  ledgerFile = join(tempDir('scale-out'), 'ledger.jsonl');
  writeDemoLedger(ledgerFile, { blockCount: 50 });
});

afterAll(async () => {
  await balancer?.close();
  await Promise.all(running.map((child) => child.stop('SIGKILL')));
});

async function startReplica(): Promise<Replica> {
  const address = await freeAddress();
  const process = startProcess('services/nft-base/dist/main.js', { ...address.env, LEDGER_FILE: ledgerFile });
  running.push(process);
  await waitFor(() => isReady(address.adminUrl), 'a replica', 60_000, 100);
  return { ...address, process };
}

async function startGateway(areaUrl: string): Promise<string> {
  const gateway = await freeAddress();
  // Every read proxied: the edge cache would answer repeated reads itself.
  running.push(startProcess('gateway/dist/index.js', { ...gateway.env, NFT_BASE_URL: areaUrl, RATE_LIMIT_PER_MINUTE: '0', EDGE_CACHE_MB: '0' }));
  await waitFor(async () => (await fetch(`${gateway.url}/livez`)).ok, 'the gateway', 30_000, 100);
  return gateway.url;
}

/** The requests for ROUTE a replica has answered, from its metrics. */
async function answeredBy(replica: Replica): Promise<number> {
  const text = await (await fetch(`${replica.adminUrl}/metrics`, { signal: AbortSignal.timeout(5_000) })).text();
  return text
    .split('\n')
    .filter((line) => line.startsWith('http_request_duration_seconds_count{') && line.includes(`route="${ROUTE}"`))
    .reduce((sum, line) => sum + Number(line.split(' ').pop()), 0);
}

/** Each replica's share of the requests answered since the last call. */
function windowShares(replicas: Replica[]): () => Promise<number[]> {
  let last = replicas.map(() => 0);
  return async () => {
    const now = await Promise.all(replicas.map(answeredBy));
    const answered = now.map((count, at) => count - last[at]);
    last = now;
    const total = answered.reduce((sum, count) => sum + count, 0);
    return answered.map((count) => (total === 0 ? 0 : count / total));
  };
}

it('gives a replica added behind one connection balancer a share of the load, and fails no request when one is removed', async () => {
  const [first, second, added] = await Promise.all([startReplica(), startReplica(), startReplica()]);
  balancer = await startTcpBalancer([first.url, second.url]);
  const gateway = await startGateway(balancer.url);
  const load = steadyLoad(`${gateway}/api${ROUTE}?limit=5`, { clients: CLIENTS, maxMs: 150_000, maxRequests: 500_000 });

  // Steady load on the two: every connection the gateway keeps to the area is open before the third comes.
  await waitFor(async () => (await answeredBy(first)) > 0 && (await answeredBy(second)) > 0, 'both replicas answering', 30_000, 200);
  balancer.add(added.url);
  const shares = windowShares([first, second, added]);
  await shares();
  await waitFor(async () => (await shares())[2] >= 0.25, 'a quarter of the requests on the added replica', SPREAD_WITHIN_MS, WINDOW_MS);

  balancer.remove(first.url);
  const exited = first.process.stop('SIGTERM', 20_000);
  const answeredBefore = load.outcomes.length;
  const code = await exited;
  // The two left go on answering the whole load after the removed one has gone.
  await waitFor(() => load.outcomes.length > answeredBefore + 20 * CLIENTS, 'answers after the removal', 30_000, 100);
  const outcomes = await load.stop();

  expect(code).toBe(0);
  expect(outcomes.filter((outcome) => outcome !== 'answered')).toEqual([]);
}, 180_000);
