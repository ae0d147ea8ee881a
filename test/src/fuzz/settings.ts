import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import { TIMER_SLACK_MS } from '@ledger-api/test-kit';

/**
 * How much to fuzz. CI runs the defaults: a fixed seed, so every run sends the same
 * requests, and a few thousand of them. `npm run fuzz -- --runs <n> [--seed <s>]`
 * sets FUZZ_RUNS and FUZZ_SEED for a bigger run.
 */
function integerSetting(name: string, fallback: number): number {
  const value = process.env[name];
  if (value === undefined || value === '') return fallback;
  if (!/^-?\d+$/.test(value)) throw new Error(`${name} must be an integer, got ${JSON.stringify(value)}`);
  return Number(value);
}

export const FUZZ_SEED = integerSetting('FUZZ_SEED', 20240607);
/** Requests over all properties, spread by the shares below. */
export const FUZZ_RUNS = integerSetting('FUZZ_RUNS', 3000);
export const RESULTS_DIR = resolve(__dirname, '../../.fuzz-results');

/** The gateway's deadline for a service's answer (PROXY_TIMEOUT_MS): past it, it answers 503 itself. */
export const PROXY_DEADLINE_MS = 5_000;
/**
 * An answer later than this breaks the contract: every answer comes by the proxy deadline (the
 * gateway's own sooner), give or take a loaded machine. How fast they come is for the benchmarks;
 * the summary shows the slowest.
 */
export const ANSWER_LIMIT_MS = PROXY_DEADLINE_MS + TIMER_SLACK_MS;
/** How long a client waits before it records "no answer": past any answer's limit. */
export const CLIENT_TIMEOUT_MS = ANSWER_LIMIT_MS + 1_000;
/** The gateway's deadline for a whole request (REQUEST_TIMEOUT_MS), short so stalled bodies cost little. */
export const REQUEST_DEADLINE_MS = 2_000;
/** A stalled body gets its 408 once the deadline has passed, give or take a loaded machine. */
export const STALLED_BODY_LIMIT_MS = REQUEST_DEADLINE_MS + TIMER_SLACK_MS;
/** How long a live stream may take to send its first event; and how long one that resumed at the newest event is watched for none. */
export const STREAM_FIRST_EVENT_MS = ANSWER_LIMIT_MS;
export const QUIET_STREAM_MS = 300;
/** Bounds one property, shrinking included, so a frozen area cannot stall the suite. */
export const PROPERTY_TIME_LIMIT_MS = 30_000;

/** Runs for one property given its share of FUZZ_RUNS, spread over `targets` endpoints. */
export function runsPerTarget(share: number, targets: number, minimum = 3): number {
  return Math.max(minimum, Math.round((FUZZ_RUNS * share) / Math.max(targets, 1)));
}

/** A seed per property and target, derived from FUZZ_SEED, so adding a route does not shift the others. */
export function seedFor(...names: string[]): number {
  const digest = createHash('sha256')
    .update(`${FUZZ_SEED}:${names.join(':')}`)
    .digest();
  return digest.readInt32LE(0);
}
