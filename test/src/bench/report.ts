import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AREAS } from '@ledger-api/config';
import type { Sample, Scenario } from './measure';

/** What one scenario measured on every target, one sample per round. */
export interface ScenarioResult {
  scenario: Scenario;
  /** Body bytes on the wire and their Content-Encoding, by target. */
  wire: Record<string, { bytes: number; encoding: string }>;
  samples: Record<string, Sample[]>;
}

export interface BenchReport {
  startedAt: string;
  commit: string;
  /** What was measured, in words (BENCH_LABEL), e.g. which change set. */
  label?: string;
  machine: {
    node: string;
    cpus: number;
    connections: number;
    warmupSeconds: number;
    durationSeconds: number;
    rounds: number;
    pageCache: string;
    /** The stack's LOG_LEVEL; absent in reports from before it was set. */
    logLevel?: string;
  };
  results: ScenarioResult[];
}

export const STACK_PROCESSES = ['gateway', ...AREAS.map((area) => area.name)];

export interface Range {
  median: number;
  min: number;
  max: number;
}

export function range(values: number[]): Range {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
  return { median, min: sorted[0], max: sorted[sorted.length - 1] };
}

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

/** CPU µs per request of the gateway and the three services together, per round; redis-server apart. */
export const stackMicros = (sample: Sample) => sum(STACK_PROCESSES.map((name) => sample.cpuMicrosPerRequest[name] ?? 0));
const servicesMicros = (sample: Sample) => sum(STACK_PROCESSES.slice(1).map((name) => sample.cpuMicrosPerRequest[name] ?? 0));
const ownMicros = (name: string) => (sample: Sample) => sample.cpuMicrosPerRequest[name] ?? 0;

function show(values: number[], digits = 0): string {
  const { median, min, max } = range(values);
  const format = (value: number) => value.toFixed(digits);
  return values.length === 1 ? format(median) : `${format(median)} (${format(min)}–${format(max)})`;
}

const of = (samples: Sample[] | undefined, metric: (sample: Sample) => number) => (samples ?? []).map(metric);

function tableRow({ scenario, wire, samples }: ScenarioResult): string {
  const stack = samples.stack;
  const ratio = stack.map((sample, round) => stackMicros(sample) / ownMicros('hapi')(samples.hapi[round]));
  const cells = [
    scenario.name,
    `${wire.stack.bytes} ${wire.stack.encoding} / ${wire.hapi.bytes} ${wire.hapi.encoding}`,
    show(of(stack, stackMicros)),
    show(of(stack, ownMicros('gateway'))),
    show(of(stack, servicesMicros)),
    show(of(stack, ownMicros('redis'))),
    show(of(stack, (sample) => sample.requestsPerSecond)),
    `${show(of(stack, (sample) => sample.latencyMs.p50))} / ${show(of(stack, (sample) => sample.latencyMs.p99))}`,
    show(of(samples.hapi, ownMicros('hapi'))),
    show(of(samples.hapi, (sample) => sample.requestsPerSecond)),
    show(of(samples.bare, ownMicros('bare'))),
    show(of(samples.bare, (sample) => sample.requestsPerSecond)),
    samples.proxy ? show(of(samples.proxy, ownMicros('proxy'))) : '',
    samples['express-proxy'] ? show(of(samples['express-proxy'], ownMicros('express-proxy'))) : '',
    samples.miss ? show(of(samples.miss, ownMicros('gateway'))) : '',
    samples.miss && samples.proxy ? show(missOver({ scenario, wire, samples }, 'proxy'), 2) : '',
    samples.miss && samples['express-proxy'] ? show(missOver({ scenario, wire, samples }, 'express-proxy'), 2) : '',
    show(ratio, 2),
  ];
  return `| ${cells.join(' | ')} |`;
}

const HEADER = [
  'scenario',
  'body bytes (stack / hapi)',
  'stack CPU µs/req',
  'gateway µs',
  'services µs',
  'redis µs',
  'stack req/s',
  'p50 / p99 ms',
  'hapi 20 µs/req',
  'hapi req/s',
  'node:http µs/req',
  'node:http req/s',
  'node:http proxy µs/req',
  'Express + http-proxy-middleware µs/req',
  'gateway miss µs/req',
  'gateway miss ÷ node:http proxy',
  'gateway miss ÷ Express + http-proxy-middleware',
  'stack ÷ hapi',
];

const median = (values: number[]) => range(values).median;

/** `target` is `stack`, or `miss`: the gateway with its edge cache off and the nft-base service behind it. */
function ratioToHapi(result: ScenarioResult, target = 'stack'): number {
  return median((result.samples[target] ?? []).map((sample, round) => stackMicros(sample) / ownMicros('hapi')(result.samples.hapi[round])));
}

/** Per round: the proxying gateway's own CPU per request over a reference proxy's (`proxy` or `express-proxy`), measured in the same round. */
function missOver({ samples }: ScenarioResult, reference: string): number[] {
  return (samples.miss ?? []).map((sample, round) => ownMicros('gateway')(sample) / ownMicros(reference)(samples[reference][round]));
}

/** Each target, with the figure measured for it. */
function targets(results: ScenarioResult[]): string[] {
  const named = (name: string) => results.find(({ scenario }) => scenario.name === name);
  const lines: string[] = [];
  const toHapi: Array<[string, number]> = [
    ['asset by id', 1.5],
    ['100 assets, identity', 1],
    ['100 assets, br', 0.5],
  ];
  for (const [name, target] of toHapi) {
    const result = named(name);
    if (!result) continue;
    const proxied = result.samples.miss ? `; every read proxied, edge cache off: ${ratioToHapi(result, 'miss').toFixed(2)}` : '';
    lines.push(`- stack CPU ÷ hapi 20, ${name}: ${ratioToHapi(result).toFixed(2)} (target ≤ ${target}${proxied})`);
  }
  // The gateway proxies with Express and http-proxy-middleware: what it adds is measured against them alone.
  for (const result of results.filter(({ samples }) => samples.miss && samples['express-proxy'])) {
    const bare = result.samples.proxy ? `; over the node:http proxy: ${median(missOver(result, 'proxy')).toFixed(2)}` : '';
    lines.push(
      `- gateway miss ÷ Express + http-proxy-middleware, ${result.scenario.name}: ${median(missOver(result, 'express-proxy')).toFixed(2)} (target ≤ 1.25${bare})`,
    );
  }
  const [identity, br] = [named('100 assets, identity'), named('100 assets, br')];
  if (identity && br) {
    lines.push(`- br page ÷ identity page: ${(br.wire.stack.bytes / identity.wire.stack.bytes).toFixed(3)} (target ≤ 0.25)`);
  }
  return lines;
}

export function markdown(report: BenchReport): string {
  const { machine } = report;
  const failures = report.results.flatMap(({ scenario, samples }) =>
    Object.entries(samples).flatMap(([target, list]) => (list.some((sample) => sample.failures > 0) ? [`${scenario.name} on ${target}`] : [])),
  );
  return [
    `# Benchmark ${report.startedAt}`,
    '',
    ...(report.label ? [report.label, ''] : []),
    `Commit ${report.commit}; Node ${machine.node}, ${machine.cpus} CPUs; ${machine.connections} connections, ` +
      `${machine.warmupSeconds} s warm-up and ${machine.durationSeconds} s measured per sample, ${machine.rounds} round(s); ` +
      `page cache: ${machine.pageCache}; log level: ${machine.logLevel ?? 'warn'}. All load on 127.0.0.1.`,
    '',
    'CPU µs/req is the CPU time (user + system, from /proc) each process used per answered request. ' +
      '"stack" is the gateway and the three services; redis-server is listed apart. ' +
      '"node:http proxy" is the proxy process alone, forwarding to the stack\'s nft-base service as the gateway does; ' +
      '"Express + http-proxy-middleware" is that forwarding by the gateway\'s framework and proxy alone, nothing else; ' +
      '"gateway miss" is a second gateway\'s own CPU, with its edge cache off (every request proxied) in front of the same services. ' +
      'Cells show the median of the rounds, with the range in brackets.',
    '',
    `| ${HEADER.join(' | ')} |`,
    `|${HEADER.map(() => ' --- ').join('|')}|`,
    ...report.results.map(tableRow),
    '',
    failures.length > 0 ? `Samples with failed requests: ${failures.join(', ')}.` : 'Every request of every sample answered 2xx.',
    '',
    'Targets (medians):',
    '',
    ...targets(report.results),
    '',
  ].join('\n');
}

/** Writes the report as JSON and markdown, dated and under the stable `latest` names. */
export function writeReport(directory: string, report: BenchReport): string[] {
  mkdirSync(directory, { recursive: true });
  const stamp = report.startedAt.replace(/[:.]/g, '-');
  const json = `${JSON.stringify(report, null, 2)}\n`;
  const table = markdown(report);
  const files = [`bench-${stamp}.json`, 'bench-latest.json', `bench-${stamp}.md`, 'bench-latest.md'].map((name) => join(directory, name));
  files.forEach((file) => writeFileSync(file, file.endsWith('.json') ? json : table));
  return files;
}
