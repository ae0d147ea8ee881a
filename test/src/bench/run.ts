import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { AREAS } from '@ledger-api/config';
import { waitFor } from '@ledger-api/test-kit';
import { tempDir } from '../support/ledger-files';
import { startLocalStack, type LocalStack } from '../support/local-stack';
import { freeAddress, freePort, getJson, isReady, ROOT, runnableEntry, startCommand, startProcess, type RunningProcess } from '../support/processes';
import { startTestRedis, type TestRedis } from '../support/redis';
import { fetchRaw, measure, type LoadSettings, type Scenario, type Target } from './measure';
import { childrenByScript } from './process-cpu';
import type { Fixture } from './reference-server';
import { writeReport, type BenchReport, type ScenarioResult } from './report';

/**
 * `npm run bench`: the local stack on the demo ledger as `npm start` runs it (edge
 * cache on, page cache in process; BENCH_REDIS=on puts it in a redis-server of the
 * benchmark's own), its request logs at BENCH_LOG_LEVEL (info, as deployed) written
 * to a file, against hapi 20 and bare node:http serving the same bytes. A bare
 * node:http proxy in front of the stack's nft-base service and a second gateway with
 * its edge cache off (EDGE_CACHE_MB=0: every request proxied) in front of the same
 * services compare what a proxied request costs. Loads 127.0.0.1 only.
 * Results go to bench-results/ as JSON and markdown. Settings: BENCH_ROUNDS,
 * BENCH_SECONDS, BENCH_WARMUP_SECONDS (before each sample), BENCH_INITIAL_WARMUP_SECONDS
 * (once per scenario and target), BENCH_CONNECTIONS, BENCH_LABEL (a line saying what
 * was measured, put at the top of the report).
 */
const settings: LoadSettings = {
  connections: Number(process.env.BENCH_CONNECTIONS ?? 16),
  warmupSeconds: Number(process.env.BENCH_WARMUP_SECONDS ?? 2),
  durationSeconds: Number(process.env.BENCH_SECONDS ?? 8),
};
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const INITIAL_WARMUP_SECONDS = Number(process.env.BENCH_INITIAL_WARMUP_SECONDS ?? 8);
const USE_REDIS = process.env.BENCH_REDIS === 'on';
const LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? 'info';
// What a browser sends; hapi answers it with gzip, the stack with br.
const BROWSER_ACCEPT_ENCODING = 'gzip, deflate, br';
// The limiter runs as deployed, with a limit the benchmark never reaches.
const UNREACHED_RATE_LIMIT = '1000000000';

const SCRIPTS: Record<string, string> = { gateway: 'gateway/dist/index.js', ...Object.fromEntries(AREAS.map((area) => [area.name, area.entry])) };

async function scenarios(api: string): Promise<Scenario[]> {
  const asset = (await getJson(`${api}/nft/assets?limit=1&page=7`)).body.data[0];
  const page = '/nft/assets?limit=100';
  return [
    { name: 'asset by id', method: 'GET', path: `/nft/assets/${asset.id}` },
    { name: '100 assets, identity', method: 'GET', path: page },
    { name: '100 assets, br', method: 'GET', path: page, acceptEncoding: BROWSER_ACCEPT_ENCODING },
    { name: 'asset search (POST)', method: 'POST', path: '/nft/assets/search?limit=20', body: JSON.stringify(asset.attributes) },
  ];
}

interface RunningStack {
  stack: LocalStack;
  target: Target;
  /** The nft-base service, which every scenario reads. */
  nftBase: { url: string; pid: number };
}

async function startStack(redis: TestRedis | undefined, directory: string): Promise<RunningStack> {
  const env = { LOG_LEVEL, RATE_LIMIT_PER_MINUTE: UNREACHED_RATE_LIMIT, ...(redis && { REDIS_URL: redis.url }) };
  const stack = await startLocalStack({ env, directory, outputFile: join(directory, 'stack.log') });
  const children = childrenByScript(stack.launcher.child.pid!);
  const pids = Object.fromEntries(Object.entries(SCRIPTS).map(([name, script]) => [name, children.get(runnableEntry(script))!]));
  if (redis) pids.redis = redis.process.child.pid!;
  return {
    stack,
    target: { name: 'stack', base: `${stack.gateway}/api`, pids },
    nftBase: { url: stack.services.NFT_BASE_URL, pid: pids['nft-base'] },
  };
}

/** A gateway that proxies every request (edge cache off) to the stack's services, configured as the stack's own otherwise. */
async function startProxyingGateway({ stack, nftBase }: RunningStack, directory: string): Promise<{ server: RunningProcess; target: Target }> {
  const address = await freeAddress();
  const environment = { ...stack.services, ...address.env, EDGE_CACHE_MB: '0', LOG_LEVEL, RATE_LIMIT_PER_MINUTE: UNREACHED_RATE_LIMIT };
  const server = startProcess('gateway/dist/index.js', environment, { outputFile: join(directory, 'proxying-gateway.log') });
  await waitFor(() => isReady(address.adminUrl), 'the proxying gateway', 30_000, 100);
  // As for the node:http proxy, the nft-base service's CPU is counted beside the gateway's own.
  return { server, target: { name: 'miss', base: `${address.url}/api`, pids: { gateway: server.child.pid!, 'nft-base': nftBase.pid } } };
}

/** What the stack answered for each scenario, for the reference servers to send back. */
async function fixturesOf(api: string, list: Scenario[]): Promise<Fixture[]> {
  const fixtures = new Map<string, Fixture>();
  for (const scenario of list) {
    const path = scenario.path.split('?')[0];
    const identity = await fetchRaw(api, { ...scenario, acceptEncoding: undefined });
    const fixture = fixtures.get(`${scenario.method} ${path}`) ?? { method: scenario.method, path, identity: identity.body.toString('utf8') };
    if (scenario.acceptEncoding) {
      const encoded = await fetchRaw(api, scenario);
      if (encoded.headers['content-encoding'] === 'br') fixture.br = encoded.body.toString('base64');
    }
    fixtures.set(`${scenario.method} ${path}`, fixture);
  }
  return [...fixtures.values()];
}

/** A reference server: `source` is the fixtures file, or for `proxy` the service it forwards to. */
async function startReference(
  kind: 'hapi' | 'bare' | 'proxy' | 'express-proxy',
  source: string,
): Promise<{ server: RunningProcess; target: Target }> {
  const port = await freePort();
  const server = startCommand(process.execPath, [join(__dirname, 'reference-server.js'), kind, source, String(port)], {});
  const base = `http://127.0.0.1:${port}`;
  await waitFor(async () => (await fetch(`${base}/nowhere`).catch(() => undefined)) !== undefined, `the ${kind} server`, 10_000, 50);
  const proxies = kind === 'proxy' || kind === 'express-proxy';
  return { server, target: { name: kind, base: proxies ? `${base}/api` : base, pids: { [kind]: server.child.pid! } } };
}

async function wireOf(target: Target, scenario: Scenario): Promise<{ bytes: number; encoding: string }> {
  const response = await fetchRaw(target.base, scenario);
  if (response.status !== 200) throw new Error(`${scenario.name} answered ${response.status} on ${target.name}`);
  return { bytes: response.body.length, encoding: String(response.headers['content-encoding'] ?? 'identity') };
}

async function runRounds(targets: Target[], list: Scenario[]): Promise<ScenarioResult[]> {
  const results: ScenarioResult[] = [];
  for (const scenario of list) {
    const wire = Object.fromEntries(await Promise.all(targets.map(async (target) => [target.name, await wireOf(target, scenario)] as const)));
    results.push({ scenario, wire, samples: Object.fromEntries(targets.map((target) => [target.name, []])) });
  }
  // The stack's JIT and heap need several seconds of traffic before they serve as a running deployment does.
  for (const result of results) {
    for (const target of targets) await measure(target, result.scenario, { ...settings, durationSeconds: INITIAL_WARMUP_SECONDS });
  }
  // Rounds interleave the targets, so a burst of other work on the machine spreads over all of them.
  for (let round = 1; round <= ROUNDS; round += 1) {
    for (const result of results) {
      for (const target of targets) {
        const sample = await measure(target, result.scenario, settings);
        result.samples[target.name].push(sample);
        const micros = Object.entries(sample.cpuMicrosPerRequest).map(([name, value]) => `${name} ${value.toFixed(0)}`);
        process.stdout.write(
          `round ${round} ${result.scenario.name} on ${target.name}: ${sample.requestsPerSecond} req/s; µs/req ${micros.join(', ')}\n`,
        );
      }
    }
  }
  return results;
}

function commit(): string {
  return spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).stdout.trim() || 'unknown';
}

async function main(): Promise<void> {
  const startedAt = new Date().toISOString();
  const redis = USE_REDIS ? await startTestRedis() : undefined;
  const running: Array<Pick<RunningProcess, 'stop'>> = redis ? [redis.process] : [];
  // The ledger, the fixtures and the stack's log (hundreds of MB at info): removed at the end.
  const directory = tempDir('bench');
  try {
    const stackRunning = await startStack(redis, directory);
    const { stack, target: stackTarget, nftBase } = stackRunning;
    running.unshift(stack);
    const list = await scenarios(stackTarget.base);
    const fixturesFile = join(directory, 'fixtures.json');
    writeFileSync(fixturesFile, JSON.stringify(await fixturesOf(stackTarget.base, list)));
    const references = await Promise.all([
      startReference('hapi', fixturesFile),
      startReference('bare', fixturesFile),
      startReference('proxy', nftBase.url),
      startReference('express-proxy', nftBase.url),
    ]);
    running.unshift(...references.map(({ server }) => server));
    // The proxies' answers cost the service as well: its CPU is counted beside the proxy's own.
    for (const proxy of references.slice(2)) proxy.target.pids['nft-base'] = nftBase.pid;
    const proxyingGateway = await startProxyingGateway(stackRunning, directory);
    running.unshift(proxyingGateway.server);
    const results = await runRounds([stackTarget, ...references.map(({ target }) => target), proxyingGateway.target], list);
    const machine = {
      node: process.version,
      cpus: cpus().length,
      ...settings,
      rounds: ROUNDS,
      pageCache: redis ? 'redis' : 'in-process',
      logLevel: LOG_LEVEL,
    };
    const report: BenchReport = { startedAt, commit: commit(), label: process.env.BENCH_LABEL, machine, results };
    const files = writeReport(join(ROOT, 'bench-results'), report);
    process.stdout.write(`results written to ${files.join(', ')}\n`);
  } finally {
    for (const process of running) await process.stop();
    rmSync(directory, { recursive: true, force: true });
  }
}

main().catch((error: Error) => {
  process.stderr.write(`${error.stack ?? error.message}\n`);
  process.exit(1);
});
