import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { ROOT } from '../support/processes';
import { markdownReport, targets, type ScaleResult, type WorkerResult } from './scale-report';

/**
 * `npm run bench:scale -- <blocks> [--assets N] [--ledger path] [--jetstream]`:
 * writes the demo ledger (unless --ledger names one already written), then, in
 * a fresh process each, times reading and parsing it, replays it into the
 * nft-base read model and measures memory and the first answer of the main
 * list queries; --jetstream also publishes it to NATS JetStream and replays it
 * from there. Figures go to stdout and bench-results/scale-*.{json,md}.
 */
const run = promisify(execFile);
const WORKER = join(__dirname, 'scale-worker.js');
const DEMO_CLI = resolve(ROOT, 'libs/demo-ledger/dist/cli/demo.js');
const MAX_OUTPUT_BYTES = 64 * 1024 * 1024;

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

async function worker(path: string, input: 'file' | 'jetstream'): Promise<WorkerResult> {
  const { stdout } = await run(process.execPath, ['--expose-gc', WORKER, path, input], { maxBuffer: MAX_OUTPUT_BYTES });
  return JSON.parse(stdout.trim().split('\n').pop()!) as WorkerResult;
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const startedAt = new Date().toISOString();
  const name = `scale-${options.blocks}${options.assets ? `-${options.assets}-assets` : ''}`;
  const path = options.ledger ?? join('/tmp', `${name}.jsonl`);
  const generationSeconds = options.ledger && existsSync(options.ledger) ? undefined : await generate(options, path);
  if (generationSeconds !== undefined) process.stdout.write(`generated ${path} in ${generationSeconds.toFixed(1)} s\n`);
  const fromFile = await worker(path, 'file');
  const fromJetStream = options.jetStream ? await worker(path, 'jetstream') : undefined;
  const result: ScaleResult = {
    startedAt,
    machine: { node: process.version, cpus: cpus().length, loadAverage: loadavg() },
    ledger: { path, blocks: options.blocks, ...(options.assets && { assets: options.assets }), bytes: statSync(path).size, generationSeconds },
    parse: fromFile.parse,
    replay: fromFile.replay!,
    memory: fromFile.memory!,
    firstAnswers: fromFile.firstAnswers!,
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

main().catch((error: Error) => {
  process.stderr.write(`${error.stack ?? error.message}\n`);
  process.exit(1);
});
