import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as delay } from 'node:timers/promises';
import { promisify } from 'node:util';
import { freeAddress, ROOT, RUNNABLE_NODE_OPTIONS, runnableEntry } from '../support/processes';
import { cpuMicros } from './process-cpu';
import {
  markdownReport,
  targets,
  type LedgerSample,
  type ParseFigures,
  type ReplayFigures,
  type ScaleResult,
  type ServiceFigures,
  type WorkerInput,
  type WorkerResult,
} from './scale-report';
import { firstAnswersAt } from './scale-worker';

/**
 * `npm run bench:scale -- <blocks> [--assets N] [--ledger path] [--jetstream]`:
 * writes the demo ledger (unless --ledger names one already written), then, in
 * a fresh process each, times reading and parsing it, replays it into the
 * nft-base read model and measures memory and the first answer of the main
 * list queries; then replays it through the nft-base service as it runs in
 * production, a process of its own, timed until /readyz answers 200, and asks it
 * the same first answers; replays it once without history (HISTORY_BLOCKS=0), once
 * more with and once more without, for the cost of keeping history; --jetstream also
 * publishes it to NATS JetStream and replays it from there. Figures go to stdout and
 * bench-results/scale-*.{json,md}.
 */
const run = promisify(execFile);
const WORKER = join(__dirname, 'scale-worker.js');
const DEMO_CLI = resolve(ROOT, 'tools/demo-ledger/dist/cli/demo.js');
const MAX_OUTPUT_BYTES = 64 * 1024 * 1024;
const SERVICE_MAIN = 'services/nft-base/dist/main.js';
const READY_POLL_MS = 200;
const READY_TIMEOUT_MS = 60 * 60 * 1000;
/** As the worker gives its replay's garbage a moment: a service that caught up is idle a while before answering. */
const SERVICE_SETTLE_MS = 2_000;
/** Backing services the bench's environment may name for --jetstream, which the file-fed service must not use. */
const BACKING_SERVICES = ['NATS_URL', 'MONGO_URL', 'REDIS_URL'];

interface ScaleOptions {
  blocks: number;
  assets?: number;
  ledger?: string;
  jetStream: boolean;
}

function parseOptions(args: string[]): ScaleOptions {
  const options: ScaleOptions = { blocks: 0, jetStream: false };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--assets') options.assets = positiveInteger(arg, args[++i]);
    else if (arg === '--ledger') options.ledger = args[++i];
    else if (arg === '--jetstream') options.jetStream = true;
    else if (/^\d+$/.test(arg)) options.blocks = positiveInteger('blocks', arg);
    else throw new Error(`unknown argument ${arg}`);
  }
  if (options.blocks === 0) throw new Error('usage: bench:scale -- <blocks> [--assets N] [--ledger path] [--jetstream]');
  return options;
}

function positiveInteger(name: string, value: string | undefined): number {
  const number = Number(value);
  if (!Number.isSafeInteger(number) || number < 1) throw new Error(`${name} needs a positive integer, got ${value}`);
  return number;
}

/** Runs the demo ledger command, timing it from outside. */
async function generate(options: ScaleOptions, path: string): Promise<number> {
  const args = [DEMO_CLI, path, '--blocks', String(options.blocks), ...(options.assets ? ['--assets', String(options.assets)] : [])];
  const started = performance.now();
  await run(process.execPath, args, { maxBuffer: MAX_OUTPUT_BYTES });
  return (performance.now() - started) / 1000;
}

async function worker(path: string, input: WorkerInput): Promise<WorkerResult> {
  const { stdout } = await run(process.execPath, ['--expose-gc', WORKER, path, input], { maxBuffer: MAX_OUTPUT_BYTES });
  return JSON.parse(stdout.trim().split('\n').pop()!) as WorkerResult;
}

function residentBytes(pid: number): number {
  const kib = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kib) * 1024;
}

/** Polls /readyz on the admin port until it answers 200; its body then says the height the projector stands at. */
async function untilReady(adminUrl: string, child: ChildProcess, output: () => string): Promise<{ height: number }> {
  const deadline = performance.now() + READY_TIMEOUT_MS;
  while (performance.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the service exited before it was ready:\n${output()}`);
    const response = await fetch(`${adminUrl}/readyz`, { signal: AbortSignal.timeout(10_000) }).catch(() => undefined);
    if (response?.status === 200) return (await response.json()) as { height: number };
    await response?.body?.cancel();
    await delay(READY_POLL_MS);
  }
  throw new Error(`the service was not ready within ${READY_TIMEOUT_MS} ms:\n${output()}`);
}

/**
 * Starts the nft-base service on the ledger file as production starts it (LEDGER_FILE,
 * LOG_LEVEL=warn, NODE_ENV=production, every other setting its default), times it until /readyz answers 200
 * and measures its processor time and memory then, and its first answers after.
 */
async function replayThroughService(path: string, parse: ParseFigures, sample: LedgerSample): Promise<ServiceFigures> {
  const address = await freeAddress();
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !BACKING_SERVICES.includes(name)));
  const started = performance.now();
  const child = spawn(process.execPath, [runnableEntry(SERVICE_MAIN)], {
    env: {
      ...env,
      NODE_OPTIONS: RUNNABLE_NODE_OPTIONS,
      NODE_ENV: 'production',
      LEDGER_FILE: path,
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      ...address.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = once(child, 'exit');
  const baseUrl = address.url;
  try {
    const { height } = await untilReady(address.adminUrl, child, () => output);
    const seconds = (performance.now() - started) / 1000;
    const cpuSeconds = cpuMicros(child.pid!) / 1e6;
    const rssBytes = residentBytes(child.pid!);
    const firstAnswers = await firstAnswersAt(baseUrl, sample, () => delay(SERVICE_SETTLE_MS));
    const transactionsPerSecond = parse.transactions / seconds;
    return { seconds, cpuSeconds, transactions: parse.transactions, transactionsPerSecond, height, rssBytes, firstAnswers };
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  }
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const startedAt = new Date().toISOString();
  const name = `scale-${options.blocks}${options.assets ? `-${options.assets}-assets` : ''}`;
  const path = options.ledger ?? join('/tmp', `${name}.jsonl`);
  const generationSeconds = options.ledger && existsSync(options.ledger) ? undefined : await generate(options, path);
  if (generationSeconds !== undefined) process.stdout.write(`generated ${path} in ${generationSeconds.toFixed(1)} s\n`);
  const fromFile = await worker(path, 'file');
  const service = await replayThroughService(path, fromFile.parse, fromFile.sample);
  const historyReplays = await replaysWithAndWithoutHistory(path, fromFile.replay!);
  const fromJetStream = options.jetStream ? await worker(path, 'jetstream') : undefined;
  // Parsed again in a fresh process after the replays: the machine's speed drifts over a run, and the replays are held to the mean.
  const parseRuns = [fromFile.parse, (await worker(path, 'parse')).parse];
  const result: ScaleResult = {
    startedAt,
    machine: { node: process.version, cpus: cpus().length, loadAverage: loadavg() },
    ledger: { path, blocks: options.blocks, ...(options.assets && { assets: options.assets }), bytes: statSync(path).size, generationSeconds },
    parse: meanParse(parseRuns),
    parseRuns,
    replay: fromFile.replay!,
    historyReplays,
    memory: fromFile.memory!,
    firstAnswers: fromFile.firstAnswers!,
    service,
    ...(fromJetStream && { jetStream: fromJetStream.jetStream }),
  };
  const report = markdownReport(result);
  const outDir = join(ROOT, 'bench-results');
  mkdirSync(outDir, { recursive: true });
  const file = join(outDir, `${name}-${startedAt.replace(/[:.]/g, '-')}`);
  writeFileSync(`${file}.json`, JSON.stringify({ ...result, targets: targets(result) }, null, 2));
  writeFileSync(`${file}.md`, report);
  process.stdout.write(`${report}\nresults written to ${file}.{json,md}\n`);
}

/** After the first replay (history kept), one without history, one with and one without again: ABAB. */
async function replaysWithAndWithoutHistory(path: string, first: ReplayFigures): Promise<ScaleResult['historyReplays']> {
  const kept = [first];
  const without = [(await worker(path, 'replay-without-history')).replay!];
  kept.push((await worker(path, 'replay')).replay!);
  without.push((await worker(path, 'replay-without-history')).replay!);
  return { kept, without };
}

/** The mean of the parse runs, with their transaction counts (the same in every run). */
function meanParse(runs: ParseFigures[]): ParseFigures {
  const mean = (figure: (run: ParseFigures) => number) => runs.reduce((sum, run) => sum + figure(run), 0) / runs.length;
  const seconds = mean((run) => run.seconds);
  return { ...runs[0], seconds, cpuSeconds: mean((run) => run.cpuSeconds), transactionsPerSecond: runs[0].transactions / seconds };
}

main().catch((error: Error) => {
  process.stderr.write(`${error.stack ?? error.message}\n`);
  process.exit(1);
});
