import autocannon from 'autocannon';

/**
 * A child process of `bench:freshness`: requests at a fixed overall rate for a
 * fixed time, cycling through the given paths, then one JSON line of what it
 * achieved.
 *   node paced-load.js '{"base": "http://127.0.0.1:4003/api", "paths": [...], "rate": 1500, "connections": 32, "seconds": 30}'
 */
export interface PacedLoadSettings {
  base: string;
  paths: string[];
  /** Requests per second over all connections. */
  rate: number;
  connections: number;
  seconds: number;
}

export interface PacedLoadResult {
  requests: number;
  seconds: number;
  requestsPerSecond: number;
  /** Answers other than 2xx, connection errors and timeouts. */
  errors: number;
  non2xx: number;
  latencyMs: { p50: number; p99: number; max: number };
}

async function main(): Promise<void> {
  const settings = JSON.parse(process.argv[2]) as PacedLoadSettings;
  const result = await autocannon({
    url: settings.base,
    connections: settings.connections,
    overallRate: settings.rate,
    duration: settings.seconds,
    requests: settings.paths.map((path) => ({ method: 'GET', path: `${new URL(settings.base).pathname}${path}` })),
  });
  const requests = result.requests.total;
  const output: PacedLoadResult = {
    requests,
    seconds: result.duration,
    requestsPerSecond: requests / result.duration,
    errors: result.non2xx + result.errors + result.timeouts,
    non2xx: result.non2xx,
    latencyMs: { p50: result.latency.p50, p99: result.latency.p99, max: result.latency.max },
  };
  process.stdout.write(`${JSON.stringify(output)}\n`);
}

main().catch((error: Error) => {
  process.stderr.write(`${error.stack ?? error.message}\n`);
  process.exit(1);
});
