import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { metricValue, showRange } from './bench-stats';
import type { JetStreamStack } from './jetstream-stack';
import { cpuMeter } from './process-cpu';

/**
 * What the stack's processes say about a stretch of load, from their /metrics and
 * /proc: read once at its start and once at its end. Event-loop delay is the
 * delay histogram prom-client resets at every scrape, so the end's figures are the
 * stretch's own.
 */
export interface ProcessFigures {
  /** CPU time used over wall time: 1 is one core kept busy. */
  cpuShare: number;
  /**
   * Time the main thread (the event loop) was ready to run but waited for a CPU (/proc/<pid>/schedstat),
   * over wall time: what other work on the machine cost it.
   */
  runQueueShare: number;
  /** That wait per time the main thread was scheduled: roughly what each wake-up (a request, a feed event) waited for a CPU. */
  runQueueMsPerRun: number;
  eventLoopDelayMs: { p50: number; p99: number; max: number };
}

export interface StackFigures {
  /** Cores the whole machine kept busy (/proc/stat), the stack's, the load's and other work's together. */
  machineBusyCores: number;
  processes: Record<string, ProcessFigures>;
  /** Gateway answers by what the edge did (hit, miss, bypass), over every area. */
  edge: Record<string, number>;
  /** By service, mean ms to apply one ledger event (ledger_block_apply_duration_seconds). */
  applyMeanMs: Record<string, number>;
}

async function scrape(stack: JetStreamStack): Promise<Record<string, string>> {
  const texts = await Promise.all(
    Object.entries(stack.admin).map(async ([name, adminUrl]) => [name, await (await fetch(`${adminUrl}/metrics`)).text()] as const),
  );
  return Object.fromEntries(texts);
}

/** The gateway's edge_cache_requests_total samples, summed by the label `by` (result, or area with only the results `of` counted). */
function edgeCounts(exposition: string, by: 'result' | 'area' = 'result', of?: string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const line of exposition.split('\n').filter((text) => text.startsWith('edge_cache_requests_total{'))) {
    if (of !== undefined && /result="(\w+)"/.exec(line)?.[1] !== of) continue;
    const label = new RegExp(`${by}="([\\w-]+)"`).exec(line)?.[1] ?? 'unknown';
    counts[label] = (counts[label] ?? 0) + Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return counts;
}

/** The edge's misses so far, by area: requests it proxied that it may keep the answer of. */
export async function edgeMissesByArea(stack: JetStreamStack): Promise<Record<string, number>> {
  return edgeCounts(await (await fetch(`${stack.admin.gateway}/metrics`)).text(), 'area', 'miss');
}

/** Busy and total jiffies of all CPUs together, from the first line of /proc/stat. */
function cpuJiffies(): { busy: number; total: number } {
  const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).map(Number);
  const total = fields.slice(0, 8).reduce((sum, n) => sum + n, 0);
  // idle and iowait are the fourth and fifth fields.
  return { busy: total - fields[3] - fields[4], total };
}

/** Nanoseconds the process's main thread has waited on a run queue, and how many times it has been scheduled since it started. */
function schedStat(pid: number): { waitedNanos: number; runs: number } {
  const [, waited, runs] = readFileSync(`/proc/${pid}/schedstat`, 'utf8').trim().split(' ').map(Number);
  return { waitedNanos: waited, runs };
}

const seconds = (exposition: string, name: string) => (metricValue(exposition, name) ?? NaN) * 1000;

/** Starts watching the stack; the returned function ends the stretch and gives its figures. */
export async function watchStack(stack: JetStreamStack): Promise<() => Promise<StackFigures>> {
  const pids = stack.pids();
  const before = await scrape(stack);
  const stopCpu = cpuMeter(pids);
  const machineBefore = cpuJiffies();
  const schedBefore = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, schedStat(pid)]));
  const startedAt = performance.now();
  return async () => {
    const cpu = stopCpu();
    const machineAfter = cpuJiffies();
    const machineBusyCores = ((machineAfter.busy - machineBefore.busy) / (machineAfter.total - machineBefore.total)) * cpus().length;
    const wallMicros = (performance.now() - startedAt) * 1000;
    const after = await scrape(stack);
    const processes = Object.fromEntries(
      Object.keys(pids).map((name) => {
        const text = after[name];
        const eventLoopDelayMs = {
          p50: seconds(text, 'nodejs_eventloop_lag_p50_seconds'),
          p99: seconds(text, 'nodejs_eventloop_lag_p99_seconds'),
          max: seconds(text, 'nodejs_eventloop_lag_max_seconds'),
        };
        const sched = schedStat(pids[name]);
        const waitedNanos = sched.waitedNanos - schedBefore[name].waitedNanos;
        const runQueueShare = waitedNanos / 1000 / wallMicros;
        const runQueueMsPerRun = waitedNanos / 1e6 / (sched.runs - schedBefore[name].runs);
        return [name, { cpuShare: cpu[name] / wallMicros, runQueueShare, runQueueMsPerRun, eventLoopDelayMs }];
      }),
    );
    const edgeBefore = edgeCounts(before.gateway);
    const edge = Object.fromEntries(Object.entries(edgeCounts(after.gateway)).map(([result, n]) => [result, n - (edgeBefore[result] ?? 0)]));
    const applyMeanMs = Object.fromEntries(
      Object.keys(stack.services).map((name) => {
        const sum = (text: string) => seconds(text, 'ledger_block_apply_duration_seconds_sum');
        const count = (text: string) => metricValue(text, 'ledger_block_apply_duration_seconds_count') ?? NaN;
        return [name, (sum(after[name]) - sum(before[name])) / (count(after[name]) - count(before[name]))];
      }),
    );
    return { machineBusyCores, processes, edge, applyMeanMs };
  };
}

/** The figures of several stretches as a markdown table, each cell the median (range) of the stretches. */
export function processTable(stretches: StackFigures[]): string[] {
  const lines = [
    '| process | CPU (cores) | event loop waiting for a CPU | mean wait per wake-up, ms | event-loop delay p50 / p99 / max ms |',
    '| --- | --- | --- | --- | --- |',
  ];
  const busy = showRange(
    stretches.map((stretch) => stretch.machineBusyCores),
    2,
  );
  lines.push(`| whole machine (${cpus().length} CPUs) | ${busy} | | | |`);
  for (const name of Object.keys(stretches[0]?.processes ?? {})) {
    const of = (pick: (figures: ProcessFigures) => number, digits = 1) =>
      showRange(
        stretches.map((stretch) => pick(stretch.processes[name])),
        digits,
      );
    const delay = `${of((f) => f.eventLoopDelayMs.p50)} / ${of((f) => f.eventLoopDelayMs.p99)} / ${of((f) => f.eventLoopDelayMs.max)}`;
    lines.push(
      `| ${name} | ${of((f) => f.cpuShare, 2)} | ${of((f) => f.runQueueShare * 100, 0)} % of the time | ${of((f) => f.runQueueMsPerRun, 2)} | ${delay} |`,
    );
  }
  return lines;
}
