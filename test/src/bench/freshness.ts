import { once } from 'node:events';
import { Agent, get } from 'node:http';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import type { AreaName } from '@ledger-api/config';
import { getJson, startCommand } from '../support/processes';
import { machine, monotonicMs, positiveSetting, writeResults } from './bench-stats';
import type { PublishedBlock } from './block-publisher';
import { freshnessReport, summarize, type FreshnessResult, type FreshnessRound, type MeasuredEvent } from './freshness-report';
import { StageClock } from './freshness-stages';
import { edgeMissesByArea, watchStack } from './stack-metrics';
import { BENCH_AREAS, startJetStreamStack, type JetStreamStack } from './jetstream-stack';
import type { PacedLoadResult, PacedLoadSettings } from './paced-load';

/**
 * `npm run bench:freshness`: the three services on JetStream (ROLE=all,
 * embedded store) behind one gateway with its edge cache on and the rate limit
 * off. A child process sends BENCH_RATE (1,500) requests a second of mixed reads
 * through the gateway; meanwhile BENCH_EVENTS ledger events (100, so that p99 is
 * not the maximum) are published BENCH_EVENT_SPACING_MS (1,000) apart, every
 * BENCH_REVERT_EVERY-th (5th) a revert of the newest block. Each event is a
 * one-group Guardian block (or its revert): it changes the guardian area only (the
 * publisher's first block, whose signer the NFT read model learns, comes before the
 * rounds), so the guardian's cached
 * pages go cold with it while the NFT areas' should stay warm; the edge's misses
 * per area between one event and the next tell (the
 * spacing sets how often blocks come; the demo ledger's are 8 s apart). For each, one client per area polls a read of that area
 * (also in the load) from just before the publish until an answer's
 * X-Block-Height shows it: the time from the publish's JetStream
 * acknowledgement to that answer is the freshness of the area.
 * BENCH_ROUNDS rounds (2) on one stack. Results go to bench-results/freshness-*.
 */
const settings = {
  rounds: positiveSetting('BENCH_ROUNDS', 2),
  rate: positiveSetting('BENCH_RATE', 1_500),
  connections: positiveSetting('BENCH_CONNECTIONS', 32),
  events: positiveSetting('BENCH_EVENTS', 100),
  eventSpacingMs: positiveSetting('BENCH_EVENT_SPACING_MS', 1_000),
  revertEvery: positiveSetting('BENCH_REVERT_EVERY', 5),
  warmupSeconds: positiveSetting('BENCH_WARMUP_SECONDS', 5),
  ledgerBlocks: positiveSetting('BENCH_LEDGER_BLOCKS', 2_000),
  logLevel: process.env.BENCH_LOG_LEVEL ?? 'info',
};
/** Freshness past this counts as never seen. */
const POLL_DEADLINE_MS = 10_000;
/** The read each area is polled with; every one is also in the load. */
const POLLED: Record<AreaName, string> = {
  guardian: '/guardian/groups',
  'nft-base': '/nft/collections',
  'nft-exchange': '/nft/exchange/auctions',
};

/** Reads of every kind the load asks for, ids taken from the demo ledger through the gateway. */
async function requestMix(api: string): Promise<string[]> {
  const ids = async (path: string, key = 'id') =>
    ((await getJson(`${api}${path}`)).body.data as Array<Record<string, string>>).map((item) => item[key]);
  const [assets, collections, groups, auctions] = await Promise.all([
    ids('/nft/assets?limit=30&page=3'),
    ids('/nft/collections?limit=6'),
    ids('/guardian/groups?limit=6', 'name'),
    ids('/nft/exchange/auctions?limit=6'),
  ]);
  const lists = [
    ...Object.values(POLLED),
    ...[1, 2, 3].map((page) => `/nft/assets?limit=20&page=${page}`),
    '/nft/assets?orderBy=fee:desc&limit=20',
    '/guardian/users?limit=20',
    '/nft/exchange/auctions?page=2&limit=20',
  ];
  const byId = [
    ...assets.map((id) => `/nft/assets/${id}`),
    ...collections.map((id) => `/nft/collections/${id}`),
    ...groups.map((name) => `/guardian/groups/${encodeURIComponent(name)}`),
    ...auctions.map((id) => `/nft/exchange/auctions/${id}`),
  ];
  const mix = byId.flatMap((path, index) => [path, lists[index % lists.length]]);
  // In both forms asked for: a browser's (br) and the load's and polling clients' (identity), so no page is cold when events begin.
  for (const path of mix) {
    for (const headers of [{}, { 'accept-encoding': 'identity' }]) {
      const response = await fetch(`${api}${path}`, { headers });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`${path} answered ${response.status}`);
    }
  }
  return mix;
}

/** Requests at the fixed rate from a child process, so the load and the measuring clients share no event loop. */
async function runLoad(load: PacedLoadSettings): Promise<PacedLoadResult> {
  const child = startCommand(process.execPath, [join(__dirname, 'paced-load.js'), JSON.stringify(load)], {});
  // autocannon stops after load.seconds; this only ends a process that hung.
  const deadline = setTimeout(() => void child.stop('SIGKILL'), (load.seconds + 30) * 1000);
  await once(child.child, 'exit');
  clearTimeout(deadline);
  const last = child.output().trim().split('\n').pop() ?? '';
  try {
    return JSON.parse(last) as PacedLoadResult;
  } catch {
    throw new Error(`the load process failed:\n${child.output().slice(-2000)}`);
  }
}

/**
 * The polling clients' connections. They ask as the load does (identity) over node:http: the
 * clients share two cores with the stack, and fetch (with a br body to decode) cost each poll
 * several times as much processor time, right when a block makes every process busy.
 */
const pollAgent = new Agent({ keepAlive: true });

/** The X-Block-Height of one answer of `url`, its body read and dropped. */
function blockHeightOf(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = get(url, { agent: pollAgent, timeout: POLL_DEADLINE_MS }, (response) => {
      response.resume();
      response.once('end', () => resolve(Number(response.headers['x-block-height'])));
      response.once('error', reject);
    });
    request.once('timeout', () => request.destroy(new Error(`${url} did not answer within ${POLL_DEADLINE_MS} ms`)));
    request.once('error', reject);
  });
}

/** monotonicMs() when an answer of `url` first showed `height`; undefined past the deadline. */
async function firstAnswerAt(url: string, height: number, deadline: number, polls: { count: number }): Promise<number | undefined> {
  while (monotonicMs() < deadline) {
    const answeredHeight = await blockHeightOf(url);
    polls.count += 1;
    if (answeredHeight === height) return monotonicMs();
  }
  return undefined;
}

/** When each area's first answer at an event's height came, by area in BENCH_AREAS order. */
interface Answers {
  published: PublishedBlock;
  answeredAt: Array<number | undefined>;
  serviceAnsweredAt: Array<number | undefined>;
  /** By area, requests the edge proxied from the publish to the next event's. */
  edgeMisses: Record<string, number>;
}

/** The publisher's first block, which changes every area: the NFT read model learns its signer's public key from it. */
async function firstBlock(stack: JetStreamStack): Promise<void> {
  const { heightAfter } = await stack.publisher.apply();
  const deadline = monotonicMs() + POLL_DEADLINE_MS;
  const answers = await Promise.all(
    BENCH_AREAS.map((area) => firstAnswerAt(`${stack.gateway}/api${POLLED[area.name]}`, heightAfter, deadline, { count: 0 })),
  );
  if (answers.includes(undefined)) throw new Error(`the first block (height ${heightAfter}) was not answered within ${POLL_DEADLINE_MS} ms`);
}

/** Publishes the `index`-th event and times each area's first answer at its height. */
async function measureEvent(stack: JetStreamStack, index: number, polls: { count: number }): Promise<Omit<Answers, 'edgeMisses'>> {
  const { publisher } = stack;
  const revert = index % settings.revertEvery === 0 && publisher.canRevert;
  const height = revert ? publisher.height - 1 : publisher.height + 1;
  const deadline = monotonicMs() + POLL_DEADLINE_MS;
  const poll = (base: (area: AreaName) => string) =>
    Promise.all(BENCH_AREAS.map((area) => firstAnswerAt(`${base(area.name)}${POLLED[area.name]}`, height, deadline, polls)));
  const throughGateway = poll(() => `${stack.gateway}/api`);
  // The same reads asked of the services directly tell the gateway's part from the services'.
  const fromServices = poll((area) => stack.services[area]);
  const published: PublishedBlock = revert ? await publisher.revert() : await publisher.apply();
  return { published, answeredAt: await throughGateway, serviceAnsweredAt: await fromServices };
}

/** An event's freshness per area, and when each stage before the answer saw it. */
function measured(clock: StageClock, { published, answeredAt, serviceAnsweredAt, edgeMisses }: Answers): MeasuredEvent {
  const byArea = <T>(value: (area: AreaName, index: number) => T): Record<string, T> =>
    Object.fromEntries(BENCH_AREAS.map((area, i) => [area.name, value(area.name, i)]));
  const since = (at: number | undefined) => (at === undefined ? null : at - published.ackAt);
  return {
    event: published.event,
    heightAfter: published.heightAfter,
    freshnessMs: byArea((_, i) => since(answeredAt[i])),
    consumerMs: clock.elapsed('consumer', '*', published),
    serviceMs: byArea((area) => clock.elapsed('service', area, published)),
    serviceAnswerMs: byArea((_, i) => since(serviceAnsweredAt[i])),
    gatewayMs: byArea((area) => clock.elapsed('gateway', area, published)),
    changedArea: byArea((area) => clock.changed(area, published) ?? null),
    edgeMisses: byArea((area) => edgeMisses[area] ?? 0),
  };
}

async function round(stack: JetStreamStack, clock: StageClock, paths: string[]): Promise<FreshnessRound> {
  const seconds = Math.ceil(settings.warmupSeconds + (settings.events * (settings.eventSpacingMs + 200)) / 1000 + 5);
  const stopWatching = await watchStack(stack);
  const loading = runLoad({ base: `${stack.gateway}/api`, paths, rate: settings.rate, connections: settings.connections, seconds });
  let loadEndedAt = Infinity;
  void loading.finally(() => (loadEndedAt = monotonicMs())).catch(() => undefined);
  await delay(settings.warmupSeconds * 1000);
  const answers: Answers[] = [];
  const polls = { count: 0 };
  let missesBefore = await edgeMissesByArea(stack);
  for (let index = 1; index <= settings.events; index += 1) {
    const answer = await measureEvent(stack, index, polls);
    await delay(settings.eventSpacingMs);
    const missesAfter = await edgeMissesByArea(stack);
    const edgeMisses = Object.fromEntries(BENCH_AREAS.map(({ name }) => [name, (missesAfter[name] ?? 0) - (missesBefore[name] ?? 0)]));
    answers.push({ ...answer, edgeMisses });
    missesBefore = missesAfter;
  }
  const eventsEndedAt = monotonicMs();
  const load = await loading;
  const stackFigures = await stopWatching();
  const events = answers.map((answer) => measured(clock, answer));
  return {
    load,
    loadCoveredEvents: eventsEndedAt <= loadEndedAt,
    loadAverage: loadavg(),
    ...stackFigures,
    polls: polls.count,
    perArea: summarize(events),
    events,
  };
}

async function main(): Promise<void> {
  const startedAt = new Date().toISOString();
  // Defaults but for the rate limit; BENCH_EDGE_CACHE_MB=0 measures the gateway without its edge cache, for comparison.
  const gatewayEnv: Record<string, string> = process.env.BENCH_EDGE_CACHE_MB === undefined ? {} : { EDGE_CACHE_MB: process.env.BENCH_EDGE_CACHE_MB };
  const stack = await startJetStreamStack({ blocks: settings.ledgerBlocks, logLevel: settings.logLevel, gatewayEnv });
  const result: FreshnessResult = { startedAt, machine: machine(), settings, gatewayEnv, rounds: [] };
  let clock: StageClock | undefined;
  try {
    clock = await StageClock.start(stack);
    await firstBlock(stack);
    const paths = await requestMix(`${stack.gateway}/api`);
    result.requestMix = paths;
    for (let index = 1; index <= settings.rounds; index += 1) {
      const figures = await round(stack, clock, paths);
      result.rounds.push(figures);
      const p99s = Object.entries(figures.perArea).map(([area, stages]) => `${area} ${stages.answer.p99.toFixed(1)}`);
      process.stdout.write(
        `round ${index}: ${figures.load.requestsPerSecond.toFixed(0)} req/s, ${figures.load.errors} errors; p99 ms ${p99s.join(', ')}\n`,
      );
    }
  } finally {
    pollAgent.destroy();
    await clock?.stop();
    await stack.stop();
  }
  const report = freshnessReport(result);
  const files = writeResults('freshness', startedAt, result, report);
  process.stdout.write(`${report}\nresults written to ${files.join(', ')}\n`);
}

main().catch((error: Error) => {
  process.stderr.write(`${error.stack ?? error.message}\n`);
  process.exit(1);
});
