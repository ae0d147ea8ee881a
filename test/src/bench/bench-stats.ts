import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../support/processes';

/** Small statistics and result files shared by `bench:streams` and `bench:freshness`. */

/** Milliseconds on the system's monotonic clock: comparable between processes of one machine, unlike performance.now(). */
export function monotonicMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}

export interface Distribution {
  count: number;
  p50: number;
  p99: number;
  max: number;
}

/** Nearest-rank percentiles. */
export function distribution(values: number[]): Distribution {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (p: number) => sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)] ?? NaN;
  return { count: sorted.length, p50: rank(0.5), p99: rank(0.99), max: sorted[sorted.length - 1] ?? NaN };
}

/** `median (min–max)` of one figure over the rounds; the figure alone for one round. */
export function showRange(values: number[], digits = 1): string {
  const sorted = [...values].sort((a, b) => a - b);
  const format = (value: number) => value.toFixed(digits);
  if (sorted.length === 1) return format(sorted[0]);
  const middle = sorted.length / 2;
  const median = Number.isInteger(middle) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[Math.floor(middle)];
  return `${format(median)} (${format(sorted[0])}–${format(sorted[sorted.length - 1])})`;
}

export function showDistribution(d: Distribution, digits = 1): string {
  return `${d.p50.toFixed(digits)} / ${d.p99.toFixed(digits)} / ${d.max.toFixed(digits)}`;
}

/** A load average (1, 5, 15 min) as `1.2 3.4 5.6`. */
export function showLoad(average: number[]): string {
  return average.map((n) => n.toFixed(1)).join(' ');
}

/** What every result file says about where it was measured. */
export function machine(): { node: string; cpus: number; commit: string } {
  const commit = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).stdout.trim() || 'unknown';
  return { node: process.version, cpus: cpus().length, commit };
}

/** Writes `bench-results/<name>-<startedAt>.{json,md}`; returns both paths. */
export function writeResults(name: string, startedAt: string, result: object, markdown: string): string[] {
  const directory = join(ROOT, 'bench-results');
  mkdirSync(directory, { recursive: true });
  const file = join(directory, `${name}-${startedAt.replace(/[:.]/g, '-')}`);
  writeFileSync(`${file}.json`, `${JSON.stringify(result, null, 2)}\n`);
  writeFileSync(`${file}.md`, markdown);
  return [`${file}.json`, `${file}.md`];
}

/** Resident memory of a process, from /proc. */
export function residentBytes(pid: number): number {
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!match) throw new Error(`no VmRSS for process ${pid}`);
  return Number(match[1]) * 1024;
}

/** The value of a Prometheus metric without labels of its own (a process's default labels aside), e.g. `nodejs_heap_size_used_bytes`. */
export function metricValue(exposition: string, name: string): number | undefined {
  const line = exposition.split('\n').find((text) => text.startsWith(`${name} `) || text.startsWith(`${name}{`));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

export function positiveSetting(name: string, fallback: number): number {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} needs a positive number, got ${process.env[name]}`);
  return value;
}
