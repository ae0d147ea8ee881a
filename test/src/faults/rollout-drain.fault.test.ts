import { Agent } from 'node:http';
import { join } from 'node:path';
import { writeDemoLedger } from '@ledger-api/demo-ledger';
import { expectWithinDeadline, waitFor } from '@ledger-api/test-kit';
import { ask, type Outcome } from '../support/keep-alive-load';
import { tempDir } from '../support/ledger-files';
import { freeAddress, isReady, startProcess, type RunningProcess } from '../support/processes';

/**
 * A rollout as a client meets it: keep-alive clients ask a process while it gets SIGTERM.
 * Every request gets a whole answer, or is refused before it is sent (the port no longer
 * listens): none is reset mid-way, none gets a 5xx, and the process exits 0 in time.
 */
const CLIENTS = 8;
/**
 * The later of the two processes' shutdown deadlines at their defaults, by which each exits: a
 * service's SHUTDOWN_TIMEOUT_MS (10 s), the gateway's SHUTDOWN_DRAIN_MS + PROXY_TIMEOUT_MS + 1 s.
 */
const SHUTDOWN_DEADLINE_MS = 12_000;

/** Clients asking in a loop until `until` resolves; what each request came to. */
async function askUntil(url: string, until: Promise<unknown>): Promise<Outcome[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: CLIENTS });
  const outcomes: Outcome[] = [];
  let done = false;
  void until.then(() => (done = true));
  const client = async () => {
    while (!done) outcomes.push(await ask(agent, url));
  };
  await Promise.all(Array.from({ length: CLIENTS }, client));
  agent.destroy();
  return outcomes;
}

async function shutDownUnderLoad(process: RunningProcess, url: string) {
  let exited: Promise<number | null> | undefined;
  const stopped = new Promise<void>((resolve) => setTimeout(resolve, 300)).then(async () => {
    const startedAt = performance.now();
    exited = process.stop('SIGTERM', 20_000);
    const code = await exited;
    return { code, ms: performance.now() - startedAt };
  });
  const outcomes = await askUntil(
    url,
    stopped.then(() => new Promise((resolve) => setTimeout(resolve, 200))),
  );
  return { outcomes, ...(await stopped) };
}

const running: RunningProcess[] = [];
let ledgerFile: string;

beforeAll(() => {
  ledgerFile = join(tempDir('drain'), 'ledger.jsonl');
  writeDemoLedger(ledgerFile, { blockCount: 80 });
});

afterAll(async () => {
  await Promise.all(running.map((child) => child.stop('SIGKILL')));
});

async function startService(): Promise<string> {
  const address = await freeAddress();
  const service = startProcess('services/nft-base/dist/main.js', { ...address.env, LEDGER_FILE: ledgerFile });
  running.push(service);
  await waitFor(() => isReady(address.adminUrl), 'the service', 60_000, 100);
  return address.url;
}

it.each(['a service', 'the gateway'])(
  'drains %s at SIGTERM: no request reset, no 5xx, exit 0 in time',
  async (which) => {
    const serviceUrl = await startService();
    let target = running[running.length - 1];
    let url = `${serviceUrl}/nft/collections?limit=5`;
    if (which === 'the gateway') {
      const gateway = await freeAddress();
      target = startProcess('gateway/dist/index.js', { ...gateway.env, NFT_BASE_URL: serviceUrl, RATE_LIMIT_PER_MINUTE: '0' });
      running.push(target);
      // Without the service's admin URL its readiness is not asked: the gateway's liveness says it listens.
      await waitFor(async () => (await fetch(`${gateway.url}/livez`)).ok, 'the gateway', 30_000, 100);
      url = `${gateway.url}/api/nft/collections?limit=5`;
    }
    const { outcomes, code, ms } = await shutDownUnderLoad(target, url);

    expect(outcomes.filter((outcome) => outcome !== 'answered' && outcome !== 'refused')).toEqual([]);
    expect(outcomes.filter((outcome) => outcome === 'answered').length).toBeGreaterThan(CLIENTS);
    expect(outcomes).toContain('refused');
    expect(code).toBe(0);
    expectWithinDeadline(ms, SHUTDOWN_DEADLINE_MS);
  },
  120_000,
);
