import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { writeDemoLedger } from '@ledger-api/demo-ledger';
import { freePort, getJson, isReady, ROOT, startProcess } from '../support/processes';
import { waitFor } from '@ledger-api/test-kit';
import { tempDir } from '../support/ledger-files';

/**
 * `npm run bench`: starts the local stack on the demo ledger and measures the
 * gateway with autocannon, on 127.0.0.1 only. Results go to bench-results/.
 */
const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);

interface Scenario {
  name: string;
  path: string;
  method?: 'GET' | 'POST';
  body?: string;
}

async function scenarios(api: string): Promise<Scenario[]> {
  const asset = (await getJson(`${api}/nft/assets?limit=1&page=7`)).body.data[0];
  const auction = (await getJson(`${api}/nft/exchange/auctions?limit=1`)).body.data[0];
  return [
    { name: 'guardian groups list', path: '/guardian/groups' },
    { name: 'nft assets list, page 1', path: '/nft/assets' },
    { name: 'nft assets list, deep page ordered by fee', path: '/nft/assets?orderBy=fee:desc&page=20&limit=100' },
    { name: 'nft asset by id', path: `/nft/assets/${asset.id}` },
    { name: 'nft asset owner wallet', path: `/nft/assets/${asset.id}/wallets` },
    { name: 'nft assets search', path: '/nft/assets/search?limit=20', method: 'POST', body: JSON.stringify(asset.attributes) },
    { name: 'exchange active auctions', path: '/nft/exchange/auctions' },
    ...(auction ? [{ name: 'exchange auction wallet', path: `/nft/exchange/auctions/${auction.id}/wallets` }] : []),
  ];
}

// autocannon 8 takes a warm-up phase; its type package predates the option.
type BenchOptions = autocannon.Options & { warmup: { connections: number; duration: number } };

async function measure(url: string, scenario: Scenario) {
  const options: BenchOptions = {
    url,
    method: scenario.method ?? 'GET',
    body: scenario.body,
    headers: scenario.body ? { 'content-type': 'application/json' } : {},
    connections: CONNECTIONS,
    duration: DURATION_SECONDS,
    // JIT warm-up and the first page renders are not what a running deployment serves.
    warmup: { connections: CONNECTIONS, duration: 2 },
  };
  const result = await autocannon(options);
  return {
    requestsPerSecond: Math.round(result.requests.average),
    latencyMs: { p50: result.latency.p50, p90: result.latency.p90, p99: result.latency.p99, max: result.latency.max },
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
  };
}

/** Each scenario through the gateway and straight to its service, to show what the gateway hop costs. */
async function measureBoth(gateway: string, services: Record<string, string>, scenario: Scenario) {
  const area = scenario.path.startsWith('/guardian') ? 'guardian' : scenario.path.startsWith('/nft/exchange') ? 'exchange' : 'base';
  const viaGateway = await measure(`${gateway}/api${scenario.path}`, scenario);
  const direct = await measure(`${services[area]}${scenario.path}`, scenario);
  process.stdout.write(`${scenario.name}: ${viaGateway.requestsPerSecond} req/s via the gateway, ${direct.requestsPerSecond} req/s direct\n`);
  return { scenario: scenario.name, path: scenario.path, viaGateway, direct };
}

async function main() {
  const ledger = join(tempDir('bench'), 'ledger.jsonl');
  await writeDemoLedger(ledger);
  const ports = await Promise.all([freePort(), freePort(), freePort(), freePort()]);
  const stack = startProcess('libs/runtime/dist/cli/local-stack.js', {
    LEDGER_FILE: ledger,
    RATE_LIMIT_PER_MINUTE: '0',
    PORT: String(ports[0]),
    GUARDIAN_PORT: String(ports[1]),
    NFT_BASE_PORT: String(ports[2]),
    NFT_EXCHANGE_PORT: String(ports[3]),
  });
  try {
    const gateway = `http://127.0.0.1:${ports[0]}`;
    const services = { guardian: `http://127.0.0.1:${ports[1]}`, base: `http://127.0.0.1:${ports[2]}`, exchange: `http://127.0.0.1:${ports[3]}` };
    await waitFor(() => isReady(gateway), 'the stack', 120_000, 200);
    const results = [];
    for (const scenario of await scenarios(`${gateway}/api`)) results.push(await measureBoth(gateway, services, scenario));
    const outDir = join(ROOT, 'bench-results');
    mkdirSync(outDir, { recursive: true });
    const file = join(outDir, `bench-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
    const machine = { node: process.version, cpus: cpus().length, connections: CONNECTIONS, durationSeconds: DURATION_SECONDS };
    writeFileSync(file, JSON.stringify({ machine, results }, null, 2));
    process.stdout.write(`results written to ${file}\n`);
  } finally {
    await stack.stop();
  }
}

main().catch((error: Error) => {
  process.stderr.write(`${error.stack ?? error.message}\n`);
  process.exit(1);
});
