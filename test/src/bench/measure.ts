import autocannon from 'autocannon';
import { requestBytes, type BytesAnswer } from '../support/http-bytes';
import { cpuMeter } from './process-cpu';

export interface Scenario {
  name: string;
  method: 'GET' | 'POST';
  /** The path below the API base (`/api` at the gateway, `/` at a reference server). */
  path: string;
  body?: string;
  acceptEncoding?: string;
}

/** A server under load and the processes whose CPU time it costs. */
export interface Target {
  name: string;
  /** URL prefix the scenario paths are appended to. */
  base: string;
  pids: Record<string, number>;
}

export interface Sample {
  requests: number;
  requestsPerSecond: number;
  latencyMs: { p50: number; p99: number };
  /** Answers other than 2xx, connection errors and timeouts: a sample with any is not a clean one. */
  failures: number;
  /** CPU microseconds per answered request, by process. */
  cpuMicrosPerRequest: Record<string, number>;
}

export interface LoadSettings {
  connections: number;
  warmupSeconds: number;
  durationSeconds: number;
}

function headersOf(scenario: Scenario): Record<string, string> {
  return {
    ...(scenario.body !== undefined && { 'content-type': 'application/json' }),
    ...(scenario.acceptEncoding !== undefined && { 'accept-encoding': scenario.acceptEncoding }),
  };
}

/** One request of the scenario, its body as sent over the wire. */
export function fetchRaw(base: string, scenario: Scenario): Promise<BytesAnswer> {
  return requestBytes(`${base}${scenario.path}`, { method: scenario.method, headers: headersOf(scenario), body: scenario.body });
}

// autocannon 8 takes these options; its type package predates them.
type LoadOptions = autocannon.Options & { warmup?: unknown };

function load(url: string, scenario: Scenario, connections: number, seconds: number): Promise<autocannon.Result> {
  const options: LoadOptions = { url, method: scenario.method, body: scenario.body, headers: headersOf(scenario), connections, duration: seconds };
  return autocannon(options);
}

/** Warms the target up, then loads it while reading its processes' CPU time. */
export async function measure(target: Target, scenario: Scenario, settings: LoadSettings): Promise<Sample> {
  const url = `${target.base}${scenario.path}`;
  // JIT warm-up and the first renders are not what a running deployment serves.
  await load(url, scenario, settings.connections, settings.warmupSeconds);
  const stopMeter = cpuMeter(target.pids);
  const result = await load(url, scenario, settings.connections, settings.durationSeconds);
  const cpu = stopMeter();
  const requests = result.requests.total;
  return {
    requests,
    requestsPerSecond: Math.round(requests / settings.durationSeconds),
    latencyMs: { p50: result.latency.p50, p99: result.latency.p99 },
    failures: result.non2xx + result.errors + result.timeouts,
    cpuMicrosPerRequest: Object.fromEntries(Object.entries(cpu).map(([name, micros]) => [name, requests > 0 ? micros / requests : 0])),
  };
}
