import { contractViolations } from '../fuzz/contract';
import { startLocalStack, type LocalStack } from '../support/local-stack';
import { startLoad, timedGet, type Sample } from '../support/load';
import { waitFor } from '@ledger-api/test-kit';

/**
 * A service killed with SIGKILL under load while the stack runs under the launcher:
 * the other areas keep answering, the killed one answers 503 at once until the
 * launcher has brought it back, and it comes back without anyone stepping in.
 */
const PATHS = {
  guardian: '/api/guardian/groups?limit=5',
  base: '/api/nft/collections?limit=5',
  exchange: '/api/nft/exchange/auctions?limit=5',
};
const RECOVERY_DEADLINE_MS = 60_000;

let stack: LocalStack | undefined;

beforeAll(async () => {
  stack = await startLocalStack({ blocks: 80, env: { RATE_LIMIT_PER_MINUTE: '0' } });
}, 180_000);

afterAll(async () => {
  await stack?.stop();
}, 60_000);

const describeSample = (sample: Sample) => `${sample.path}: ${sample.status || sample.body} after ${sample.ms} ms`;

describe('a service killed under load', () => {
  let samples: Sample[];
  let topHeight: string;

  beforeAll(async () => {
    const gateway = stack!.gateway;
    topHeight = (await timedGet(`${gateway}${PATHS.guardian}`)).headers['x-block-height'];
    const load = startLoad(gateway, Object.values(PATHS));
    await waitFor(async () => load.samples.length >= 30, 'load on every area', 10_000, 50);
    process.kill(stack!.childPid('guardian'), 'SIGKILL');
    const killedAt = performance.now();
    await waitFor(
      async () => load.samples.some((sample) => sample.path === PATHS.guardian && sample.sentAt > killedAt && sample.status === 200),
      'the guardian area to answer 200 again',
      RECOVERY_DEADLINE_MS,
      100,
    );
    const recoveredCount = load.samples.length;
    await waitFor(async () => load.samples.length >= recoveredCount + 30, 'load after the recovery', 10_000, 50);
    samples = await load.stop();
  }, 120_000);

  it('is restarted by the launcher, which says so', () => {
    expect(stack!.launcher.output()).toMatch(/local-stack: guardian exited with signal SIGKILL after [\d.]+ s; restarting in [\d.]+ s/);
  });

  it('leaves the other areas answering 200 throughout', () => {
    const others = samples.filter((sample) => sample.path !== PATHS.guardian);
    expect(others.length).toBeGreaterThan(0);
    expect(others.filter((sample) => sample.status !== 200).map(describeSample)).toEqual([]);
  });

  it('answers for the killed area in time: 503 with Retry-After and the error body until it is back', () => {
    const guardian = samples.filter((sample) => sample.path === PATHS.guardian);
    const unavailable = guardian.filter((sample) => sample.status !== 200);
    expect(unavailable.length).toBeGreaterThan(0);
    const problems = guardian.flatMap((sample) => contractViolations(sample.status ? sample : { failure: sample.body, ms: sample.ms }));
    expect([...new Set(problems)]).toEqual([]);
    expect(unavailable.filter((sample) => sample.status !== 503).map(describeSample)).toEqual([]);
  });

  it('never answers the killed area from a read model still replaying', () => {
    const answered = samples.filter((sample) => sample.path === PATHS.guardian && sample.status === 200);
    expect(
      answered
        .filter((sample) => sample.headers['x-block-height'] !== topHeight)
        .map((sample) => `X-Block-Height ${sample.headers['x-block-height']}`),
    ).toEqual([]);
  });
});
