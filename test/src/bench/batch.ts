import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { writeDemoLedger } from '@ledger-api/demo-ledger';
import { encodeVariants } from '@ledger-api/http';
import { waitFor } from '@ledger-api/test-kit';
import { Pool } from 'undici';
import { tempDir } from '../support/ledger-files';
import { freeAddress, isReady, ROOT, startProcess } from '../support/processes';
import { cpuMicros } from './process-cpu';
import { range, type Range } from './report';

/**
 * `npm run bench:batch`: what a batch lookup of 100 assets costs the nft-base service
 * against 100 lookups by id, in CPU per id read from /proc. The service runs as a process
 * on a demo ledger, logging every request as deployed (to a file). Its page cache holds a
 * single page (CACHE_MAX_ENTRIES=1) and every request asks for other ids than the one
 * before, so every lookup is rendered, and stored, as an uncached one is; the cache's
 * hit counter is read before and after to show it. Rounds alternate which kind goes first.
 * Settings: BENCH_BATCH_ROUNDS (7), BENCH_BATCH_SINGLES (lookups by id per round, 3000),
 * BENCH_BATCH_BATCHES (batches of 100 per round, 300), BENCH_BATCH_ASSETS (assets on the
 * ledger, 10000), BENCH_CONNECTIONS (8). Results go to bench-results/batch-*.{json,md}.
 */
const setting = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const ROUNDS = setting('BENCH_BATCH_ROUNDS', 7);
const SINGLES = setting('BENCH_BATCH_SINGLES', 3000);
const BATCHES = setting('BENCH_BATCH_BATCHES', 300);
const ASSETS = setting('BENCH_BATCH_ASSETS', 10_000);
const CONNECTIONS = setting('BENCH_CONNECTIONS', 8);
const BATCH_SIZE = 100;
/** The requirement: a batch of 100 costs at most a tenth of 100 uncached lookups by id, per id. */
const MAX_RATIO = 0.1;

type Kind = 'single' | 'batch';

interface Phase {
  kind: Kind;
  requests: number;
  ids: number;
  cpuMicros: number;
  seconds: number;
}

interface BatchBenchResult {
  startedAt: string;
  commit: string;
  machine: { node: string; cpus: number; connections: number };
  settings: { rounds: number; singlesPerRound: number; batchesPerRound: number; batchSize: number; assets: number };
  /** Page cache hits over all measured requests: 0 when every lookup was uncached. */
  pageCacheHits: number;
  /** CPU µs of the idle service per second, for scale. */
  idleMicrosPerSecond: number;
  /**
   * What making the br and gzip forms of a batch answer would cost per id, as storing it in
   * the page cache needs: batches skip that cache, since a set of ids is seldom asked twice
   * (timed here, in the benchmark's process, on batch answers the service gave). An answer by
   * id is under 1 KB and never compressed.
   */
  compressionMicrosPerId: number;
  rounds: Phase[][];
  microsPerId: Record<Kind, Range>;
  /** Median batch CPU per id over median single-lookup CPU per id. */
  ratio: number;
  maxRatio: number;
  pass: boolean;
}

/** Sends the requests `connections` at a time; every answer must be 200, and `check` passes on its body. */
async function sendAll(pool: Pool, requests: Array<{ method: 'GET' | 'POST'; path: string; body?: string }>, check: (body: string) => void) {
  let next = 0;
  const worker = async () => {
    while (next < requests.length) {
      const { method, path, body } = requests[next++];
      const headers = body === undefined ? {} : { 'content-type': 'application/json' };
      const answer = await pool.request({ method, path, headers, body });
      const text = await answer.body.text();
      if (answer.statusCode !== 200) throw new Error(`${method} ${path} answered ${answer.statusCode}: ${text.slice(0, 200)}`);
      check(text);
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
}

/** The ids starting at `from` in the list, wrapping around. */
const idsFrom = (ids: string[], from: number, count: number) => Array.from({ length: count }, (_, at) => ids[(from + at) % ids.length]);

async function measurePhase(pool: Pool, pid: number, kind: Kind, ids: string[], from: number): Promise<Phase> {
  const requests =
    kind === 'single'
      ? idsFrom(ids, from, SINGLES).map((id) => ({ method: 'GET' as const, path: `/nft/assets/${id}` }))
      : Array.from({ length: BATCHES }, (_, at) => ({
          method: 'POST' as const,
          path: '/nft/assets/batch',
          body: JSON.stringify({ ids: idsFrom(ids, from + at * BATCH_SIZE, BATCH_SIZE) }),
        }));
  const check =
    kind === 'single'
      ? () => undefined
      : (text: string) => {
          const { data } = JSON.parse(text) as { data: unknown[] };
          if (data.length !== BATCH_SIZE || data.includes(null)) throw new Error('a batch did not answer every asset');
        };
  const started = performance.now();
  const before = cpuMicros(pid);
  await sendAll(pool, requests, check);
  const cpu = cpuMicros(pid) - before;
  const idCount = kind === 'single' ? SINGLES : BATCHES * BATCH_SIZE;
  return { kind, requests: requests.length, ids: idCount, cpuMicros: cpu, seconds: (performance.now() - started) / 1000 };
}

/** Every asset id, walked by cursor. */
async function assetIds(pool: Pool): Promise<string[]> {
  const ids: string[] = [];
  for (let path: string | null = '/nft/assets?limit=100&cursor='; path;) {
    const answer = await pool.request({ method: 'GET', path });
    const page = (await answer.body.json()) as { data: Array<{ id: string }>; meta: { next: string | null } };
    ids.push(...page.data.map((asset) => asset.id));
    path = page.meta.next;
  }
  return ids;
}

async function pageCacheHits(adminUrl: string): Promise<number> {
  const text = await (await fetch(`${adminUrl}/metrics`)).text();
  const line = text.split('\n').find((candidate) => /^\w*page_cache_requests_total\{[^}]*result="hit"/.test(candidate));
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
}

const perId = (phase: Phase) => phase.cpuMicros / phase.ids;

/** CPU µs per id of making the compressed forms of batch answers, as the service's page cache makes them. */
async function compressionMicrosPerId(pool: Pool, ids: string[]): Promise<number> {
  const texts: string[] = [];
  for (let at = 0; at < 20; at++) {
    const body = JSON.stringify({ ids: idsFrom(ids, at * BATCH_SIZE, BATCH_SIZE) });
    const answer = await pool.request({ method: 'POST', path: '/nft/assets/batch', headers: { 'content-type': 'application/json' }, body });
    texts.push(await answer.body.text());
  }
  for (const text of texts) await encodeVariants(text);
  const samples: number[] = [];
  for (let round = 0; round < 5; round++) {
    const before = process.cpuUsage();
    for (const text of texts) await encodeVariants(text);
    const used = process.cpuUsage(before);
    samples.push((used.user + used.system) / (texts.length * BATCH_SIZE));
  }
  return range(samples).median;
}

function markdown(result: BatchBenchResult): string {
  const show = ({ median, min, max }: Range) => `${median.toFixed(1)} (${min.toFixed(1)}–${max.toFixed(1)})`;
  const lines = [
    `# Batch lookups against lookups by id, ${result.startedAt}`,
    '',
    `Commit ${result.commit}; Node ${result.machine.node}, ${result.machine.cpus} CPUs, ${result.machine.connections} connections.`,
    `nft-base as a process on a demo ledger of ${result.settings.assets} assets, LOG_LEVEL=info to a file, page cache of one page:`,
    `every request uncached (page cache hits while measuring: ${result.pageCacheHits}). Idle service: ${result.idleMicrosPerSecond.toFixed(0)} µs CPU/s.`,
    `${result.settings.rounds} rounds, each ${result.settings.singlesPerRound} GET /nft/assets/{id} and ${result.settings.batchesPerRound} POST /nft/assets/batch of ${result.settings.batchSize} ids, alternating which goes first.`,
    '',
    '| | CPU µs per id, median (min–max) |',
    '| --- | --- |',
    `| GET /nft/assets/{id} | ${show(result.microsPerId.single)} |`,
    `| POST /nft/assets/batch (100 ids) | ${show(result.microsPerId.batch)} |`,
    '',
    `Batch over single, per id: **${result.ratio.toFixed(3)}** (required at most ${result.maxRatio}): ${result.pass ? 'met' : 'NOT met'}.`,
    '',
    `Batches skip the page cache, whose pages are stored with their br and gzip forms: making those forms of a batch answer would cost`,
    `${result.compressionMicrosPerId.toFixed(1)} µs per id timed alone in the benchmark's process; an answer by id is under 1 KB and is never compressed.`,
    '',
    '| round | single µs/id | batch µs/id | single req/s | batch ids/s |',
    '| --- | --- | --- | --- | --- |',
    ...result.rounds.map((phases, index) => {
      const of = (kind: Kind) => phases.find((phase) => phase.kind === kind)!;
      const single = of('single');
      const batch = of('batch');
      return `| ${index + 1} | ${perId(single).toFixed(1)} | ${perId(batch).toFixed(1)} | ${(single.requests / single.seconds).toFixed(0)} | ${(batch.ids / batch.seconds).toFixed(0)} |`;
    }),
    '',
  ];
  return lines.join('\n');
}

function commit(): string {
  return spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).stdout.trim() || 'unknown';
}

async function main(): Promise<void> {
  const startedAt = new Date().toISOString();
  const directory = tempDir('bench-batch');
  const ledger = join(directory, 'ledger.jsonl');
  writeDemoLedger(ledger, { assetCount: ASSETS });
  const address = await freeAddress();
  const service = startProcess(
    'services/nft-base/dist/main.js',
    { LEDGER_FILE: ledger, ...address.env, LOG_LEVEL: 'info', CACHE_MAX_ENTRIES: '1' },
    { outputFile: join(directory, 'service.log') },
  );
  const pool = new Pool(address.url, { connections: CONNECTIONS });
  try {
    await waitFor(() => isReady(address.adminUrl).catch(() => false), 'the nft-base service', 180_000, 200);
    const pid = service.child.pid!;
    const ids = await assetIds(pool);
    process.stdout.write(`${ids.length} assets; warming up\n`);
    // The JIT and the heap settle before anything counts.
    await measurePhase(pool, pid, 'single', ids, 0);
    await measurePhase(pool, pid, 'batch', ids, 0);
    const idleBefore = cpuMicros(pid);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const idleMicrosPerSecond = cpuMicros(pid) - idleBefore;
    const hitsBefore = await pageCacheHits(address.adminUrl);
    const rounds: Phase[][] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const order: Kind[] = round % 2 === 0 ? ['single', 'batch'] : ['batch', 'single'];
      const phases: Phase[] = [];
      // Each round starts elsewhere in the list, so no two requests in a row ask for the same ids.
      for (const kind of order) phases.push(await measurePhase(pool, pid, kind, ids, (round * 7919) % ids.length));
      rounds.push(phases);
      process.stdout.write(`round ${round + 1}: ${phases.map((phase) => `${phase.kind} ${perId(phase).toFixed(1)} µs/id`).join(', ')}\n`);
    }
    const pageCacheHitsSeen = (await pageCacheHits(address.adminUrl)) - hitsBefore;
    const compression = await compressionMicrosPerId(pool, ids);
    const microsPerId = {
      single: range(rounds.map((phases) => perId(phases.find((phase) => phase.kind === 'single')!))),
      batch: range(rounds.map((phases) => perId(phases.find((phase) => phase.kind === 'batch')!))),
    };
    const ratio = microsPerId.batch.median / microsPerId.single.median;
    const result: BatchBenchResult = {
      startedAt,
      commit: commit(),
      machine: { node: process.version, cpus: cpus().length, connections: CONNECTIONS },
      settings: { rounds: ROUNDS, singlesPerRound: SINGLES, batchesPerRound: BATCHES, batchSize: BATCH_SIZE, assets: ids.length },
      pageCacheHits: pageCacheHitsSeen,
      idleMicrosPerSecond,
      compressionMicrosPerId: compression,
      rounds,
      microsPerId,
      ratio,
      maxRatio: MAX_RATIO,
      pass: ratio <= MAX_RATIO,
    };
    const outDir = join(ROOT, 'bench-results');
    mkdirSync(outDir, { recursive: true });
    const file = join(outDir, `batch-${startedAt.replace(/[:.]/g, '-')}`);
    const report = markdown(result);
    writeFileSync(`${file}.json`, `${JSON.stringify(result, null, 2)}\n`);
    writeFileSync(`${file}.md`, report);
    process.stdout.write(`${report}\nresults written to ${file}.{json,md}\n`);
    if (!result.pass) process.exitCode = 1;
  } finally {
    await pool.close();
    await service.stop();
    rmSync(directory, { recursive: true, force: true });
  }
}

main().catch((error: Error) => {
  process.stderr.write(`${error.stack ?? error.message}\n`);
  process.exit(1);
});
