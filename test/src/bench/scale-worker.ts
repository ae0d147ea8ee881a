import { performance } from 'node:perf_hooks';
import { setTimeout as delay } from 'node:timers/promises';
import { nftBaseArea } from '@ledger-api/nft-base';
import { EMPTY_POSITION, FileLedgerSource, JetStreamLedgerSource, ProjectionRunner, publishLedgerFile, type LedgerSource } from '@ledger-api/ledger';
import { freeAddress } from '../support/processes';
import { silentLogger } from '@ledger-api/observability';
import { serviceConfigSchema, startService } from '@ledger-api/runtime';
import { EmbeddedStore } from '@ledger-api/store';
import {
  WORKER_INPUTS,
  type FirstAnswer,
  type LedgerSample,
  type MemoryFigures,
  type ParseFigures,
  type ReplayFigures,
  type WorkerInput,
  type WorkerResult,
} from './scale-report';

/**
 * One child process of `bench:scale`, started with --expose-gc so its memory
 * figures hold the read model and nothing the orchestrator allocated:
 *   node --expose-gc scale-worker.js <ledger.jsonl> file|replay|replay-without-history|jetstream|parse
 * (`parse`: reading and parsing only; `replay`: the replay of `file` alone, history kept as by default;
 * `replay-without-history`: the same as HISTORY_BLOCKS=0 runs it). Prints its figures as one JSON line.
 * `firstAnswersAt` is also what the orchestrator asks of the service process it replays the ledger through.
 */
const NETWORK_VERSION = 23;
const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const SWEEP_SETTLE_MS = 2_000;

/**
 * Times a bare read and parse of the file, the floor every replay is a ratio of: the handler counts
 * transactions and does nothing else. Sampling the ledger for the answers asked later is a pass of its
 * own, untimed, so its work never inflates the floor.
 */
async function parseFile(path: string): Promise<{ figures: ParseFigures; sample: LedgerSample }> {
  let transactions = 0;
  const started = performance.now();
  const cpuAtStart = process.cpuUsage();
  await new FileLedgerSource(path).run(async (event) => {
    if (event.event === 'block.applied') transactions += event.block.transactions.length;
  }, EMPTY_POSITION);
  const seconds = (performance.now() - started) / 1000;
  const cpuSeconds = cpuSecondsSince(cpuAtStart);
  const { sample, assets } = await sampleLedger(path);
  return { figures: { seconds, cpuSeconds, transactions, assets, transactionsPerSecond: transactions / seconds }, sample };
}

/** The ids and bodies the first answers ask for: a mid-ledger search body, the largest collection, the busiest sender. */
async function sampleLedger(path: string): Promise<{ sample: LedgerSample; assets: number }> {
  const mints: Array<{ id: string; attributes: Record<string, unknown>; collectionId: string }> = [];
  const senders = new Map<string, number>();
  await new FileLedgerSource(path).run(async (event) => {
    if (event.event !== 'block.applied') return;
    for (const tx of event.block.transactions) {
      senders.set(tx.senderPublicKey, (senders.get(tx.senderPublicKey) ?? 0) + 1);
      const token = tx.asset?.nftToken as { attributes: Record<string, unknown>; collectionId: string } | undefined;
      if (tx.typeGroup === 9000 && tx.type === 1 && token) mints.push({ id: tx.id, attributes: token.attributes, collectionId: token.collectionId });
    }
  }, EMPTY_POSITION);
  const perCollection = new Map<string, number>();
  for (const { collectionId } of mints) perCollection.set(collectionId, (perCollection.get(collectionId) ?? 0) + 1);
  const sample: LedgerSample = {
    searchBody: mints[Math.floor(mints.length / 2)]?.attributes ?? {},
    largestCollectionId: [...perCollection].sort((a, b) => b[1] - a[1])[0]?.[0] ?? '',
    busySender: [...senders].sort((a, b) => b[1] - a[1])[0]?.[0] ?? '',
    firstAssetId: mints[0]?.id ?? '',
  };
  return { sample, assets: mints.length };
}

/**
 * Feeds the source to the nft-base projection as its projector does, until `done` says everything was handled;
 * `indexIds` false as without history (HISTORY_BLOCKS=0).
 */
async function replay(
  source: LedgerSource,
  done: (streamSeq: number) => boolean,
  indexIds = true,
): Promise<{ store: EmbeddedStore; figures: ReplayFigures }> {
  const store = new EmbeddedStore();
  // As in production, where the type system alone holds projections to leaving documents unchanged.
  const projection = nftBaseArea.projection({ networkVersion: NETWORK_VERSION });
  const runner = new ProjectionRunner({ store, projection, logger: silentLogger(), guardDocuments: false, indexIds });
  await runner.init();
  let transactions = 0;
  const started = performance.now();
  const cpuAtStart = process.cpuUsage();
  runner.catchingUp();
  await source.run(async (event, streamSeq, text) => {
    await runner.handle(event, streamSeq, text);
    if (event.event === 'block.applied') transactions += event.block.transactions.length;
    if (done(streamSeq)) void source.stop();
  }, runner.position);
  runner.caughtUp();
  const seconds = (performance.now() - started) / 1000;
  const cpuSeconds = cpuSecondsSince(cpuAtStart);
  return { store, figures: { seconds, cpuSeconds, transactions, transactionsPerSecond: transactions / seconds, height: runner.position.height } };
}

async function replayJetStream(path: string): Promise<{ store: EmbeddedStore; figures: ReplayFigures; publishSeconds: number }> {
  const stream = `SCALE_${process.pid}_${Date.now()}`;
  const subjectPrefix = `scale.${process.pid}.${Date.now()}`;
  const started = performance.now();
  const published = await publishLedgerFile({ servers: NATS_URL, file: path, stream, subjectPrefix, logger: silentLogger() });
  const publishSeconds = (performance.now() - started) / 1000;
  const source = new JetStreamLedgerSource({
    servers: NATS_URL,
    consumerName: stream,
    stream,
    subjectPrefix,
    perProcess: true,
    logger: silentLogger(),
  });
  try {
    const result = await replay(source, (streamSeq) => streamSeq >= published.lastSeq);
    return { ...result, publishSeconds };
  } finally {
    await source.stop();
    await deleteStream(stream);
  }
}

async function deleteStream(stream: string): Promise<void> {
  const { connect } = await import('@nats-io/transport-node');
  const { jetstreamManager } = await import('@nats-io/jetstream');
  const connection = await connect({ servers: NATS_URL });
  try {
    await (await jetstreamManager(connection)).streams.delete(stream);
  } finally {
    await connection.close();
  }
}

/** Processor time of this process, all its threads (the garbage collector's included). */
function cpuSecondsSince(start: NodeJS.CpuUsage): number {
  const { user, system } = process.cpuUsage(start);
  return (user + system) / 1e6;
}

function memory(): MemoryFigures {
  const before = process.memoryUsage();
  global.gc?.();
  const after = process.memoryUsage();
  return { rssBytes: before.rss, heapUsedBytes: before.heapUsed, rssAfterGcBytes: after.rss, heapUsedAfterGcBytes: after.heapUsed };
}

async function timed(baseUrl: string, name: string, path: string, body?: unknown): Promise<FirstAnswer> {
  const started = performance.now();
  const response = await fetch(baseUrl + path, {
    method: body === undefined ? 'GET' : 'POST',
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  const milliseconds = performance.now() - started;
  if (response.status !== 200) throw new Error(`${name}: ${path} answered ${response.status}: ${text.slice(0, 200)}`);
  const totalCount = (JSON.parse(text) as { meta?: { totalCount?: number } }).meta?.totalCount;
  return { name, path, milliseconds, totalCount };
}

/**
 * Runs the route code of every query once on pages and bodies none of them
 * asks for, so the first answers measure the read model and the page, not
 * the compilation of code a running service has long compiled.
 */
async function warmUp(baseUrl: string): Promise<void> {
  const requests: Array<[string, unknown?]> = [
    [`/nft/assets/${'0'.repeat(64)}`],
    ['/nft/assets?page=3&limit=7&orderBy=nonce:asc'],
    ['/nft/assets/search?limit=7', { warmUp: 'no asset has this' }],
    [`/nft/collections/${'0'.repeat(64)}/assets`],
    [`/nft/assets/wallet/02${'0'.repeat(64)}`],
    ['/nft/burns?limit=7&orderBy=nonce:asc'],
  ];
  for (const [path, body] of requests) {
    const init = body === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
    await fetch(baseUrl + path, init).then((response) => response.text());
  }
}

/**
 * The replay's garbage is not the queries' to collect: a full collection, and
 * time for the collector to finish sweeping the heap concurrently, which would
 * otherwise land on the first requests, as it does on no service that has
 * been idle a moment after catching up.
 */
async function collectReplayGarbage(): Promise<void> {
  global.gc?.();
  await delay(SWEEP_SETTLE_MS);
}

/**
 * The first (uncached) answer of each query from the nft-base app at `baseUrl`, once
 * the replay's garbage is out of the way: `settle` collects it (or waits for it to be).
 */
export async function firstAnswersAt(baseUrl: string, sample: LedgerSample, settle: () => Promise<void>): Promise<FirstAnswer[]> {
  await warmUp(baseUrl);
  await settle();
  return [
    await timed(baseUrl, 'page 1', '/nft/assets'),
    await timed(baseUrl, 'orderBy=fee:desc', '/nft/assets?orderBy=fee:desc'),
    await timed(baseUrl, 'orderBy=timestamp:desc', '/nft/assets?orderBy=timestamp:desc'),
    await timed(baseUrl, 'attribute search', '/nft/assets/search', sample.searchBody),
    await timed(baseUrl, 'deep page by amount:asc', '/nft/assets?orderBy=amount:asc&page=50&limit=100'),
    await timed(baseUrl, 'largest collection, page 1', `/nft/collections/${sample.largestCollectionId}/assets`),
    await timed(baseUrl, 'busiest wallet, page 1', `/nft/assets/wallet/${sample.busySender}`),
    await timed(baseUrl, 'burns by fee', '/nft/burns?orderBy=fee:desc'),
    ...(await pastAnswers(baseUrl, sample)),
  ];
}

/** Reads as far back as the history windows reach: a point read HISTORY_BLOCKS back, a list page LIST_HISTORY_BLOCKS back. */
async function pastAnswers(baseUrl: string, sample: LedgerSample): Promise<FirstAnswer[]> {
  const head = await fetch(`${baseUrl}/nft/burns?limit=1`);
  await head.text();
  const height = Number(head.headers.get('x-block-height'));
  return [
    await timed(baseUrl, 'by id at H-9,999', `/nft/assets/${sample.firstAssetId}?height=${Math.max(1, height - 9_999)}`),
    await timed(baseUrl, 'page 1 at H-359', `/nft/assets?height=${Math.max(1, height - 359)}`),
  ];
}

/** The first answers of the nft-base app serving the replayed store in this process. */
async function firstAnswers(store: EmbeddedStore, sample: LedgerSample): Promise<FirstAnswer[]> {
  const address = await freeAddress();
  const config = serviceConfigSchema({ area: nftBaseArea.area, port: 0, adminPort: 0, storeGiven: true }).parse({
    ROLE: 'api',
    HOST: '127.0.0.1',
    ...address.env,
  });
  const service = await startService(nftBaseArea, config, silentLogger(), { store });
  try {
    return await firstAnswersAt(`http://127.0.0.1:${service.port}`, sample, collectReplayGarbage);
  } finally {
    await service.close();
  }
}

async function main(): Promise<void> {
  const [path, input] = process.argv.slice(2);
  if (!path || !WORKER_INPUTS.includes(input as WorkerInput)) throw new Error(`usage: scale-worker <ledger.jsonl> ${WORKER_INPUTS.join('|')}`);
  const parsed = await parseFile(path);
  global.gc?.();
  const result: WorkerResult = { parse: parsed.figures, sample: parsed.sample };
  if (input === 'file') {
    const { store, figures } = await replay(new FileLedgerSource(path), () => false);
    result.replay = figures;
    result.memory = memory();
    result.firstAnswers = await firstAnswers(store, parsed.sample);
  } else if (input === 'replay' || input === 'replay-without-history') {
    result.replay = (await replay(new FileLedgerSource(path), () => false, input === 'replay')).figures;
  } else if (input === 'jetstream') {
    const { figures, publishSeconds } = await replayJetStream(path);
    result.jetStream = { ...figures, publishSeconds };
  }
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

if (require.main === module) {
  main().catch((error: Error) => {
    process.stderr.write(`${error.stack ?? error.message}\n`);
    process.exit(1);
  });
}
