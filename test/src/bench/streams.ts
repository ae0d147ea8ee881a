import { loadavg } from 'node:os';
import { setTimeout as delay } from 'node:timers/promises';
import { waitFor } from '@ledger-api/test-kit';
import { distribution, machine, metricValue, positiveSetting, residentBytes, writeResults } from './bench-stats';
import type { PublishedBlock } from './block-publisher';
import { BENCH_AREAS, startJetStreamStack, type JetStreamStack } from './jetstream-stack';
import { watchStack } from './stack-metrics';
import { StreamClientPool, type Deliveries, type StreamTarget } from './stream-client-pool';
import { streamsReport, type DeliveryRound, type IdleRound, type StreamsResult } from './streams-report';

/**
 * `npm run bench:streams`: the gateway's public live streams, in front of the
 * three services on JetStream (embedded store, ROLE=all).
 *  a. Memory per idle stream: a fresh gateway, its resident memory (/proc) and
 *     heap (/metrics) before and after BENCH_IDLE_STREAMS streams (10,000) are
 *     open, every one having received its position event.
 *  b. Delivery latency: BENCH_LIVE_STREAMS streams (1,000) while BENCH_BLOCKS
 *     blocks (100) are published BENCH_BLOCK_SPACING_MS apart; for each block,
 *     the time from the publish's JetStream acknowledgement to each stream
 *     receiving it, and to the last stream receiving it.
 * BENCH_ROUNDS rounds of both (2); streams are read by BENCH_STREAM_CLIENTS
 * processes (2). Loads 127.0.0.1 only. Results go to bench-results/streams-*.
 */
const settings = {
  rounds: positiveSetting('BENCH_ROUNDS', 2),
  idleStreams: positiveSetting('BENCH_IDLE_STREAMS', 10_000),
  liveStreams: positiveSetting('BENCH_LIVE_STREAMS', 1_000),
  blocks: positiveSetting('BENCH_BLOCKS', 100),
  blockSpacingMs: positiveSetting('BENCH_BLOCK_SPACING_MS', 250),
  clientProcesses: positiveSetting('BENCH_STREAM_CLIENTS', 2),
  ledgerBlocks: positiveSetting('BENCH_LEDGER_BLOCKS', 2_000),
  logLevel: process.env.BENCH_LOG_LEVEL ?? 'info',
};
/** Time for the gateway to finish what opening or closing streams started before its memory is read. */
const SETTLE_MS = 5_000;
/** Time after the last block for its events to reach every stream. */
const DRAIN_MS = 2_000;

function targets(gateway: string): StreamTarget[] {
  return BENCH_AREAS.map((area) => ({ area: area.name, url: `${gateway}/api${area.eventsPath}` }));
}

async function gatewayMetrics(stack: JetStreamStack): Promise<{ rss: number; heapUsed: number; streams: number }> {
  const exposition = await (await fetch(`${stack.admin.gateway}/metrics`)).text();
  return {
    rss: residentBytes(stack.pids().gateway),
    heapUsed: metricValue(exposition, 'nodejs_heap_size_used_bytes') ?? NaN,
    streams: metricValue(exposition, 'live_streams_open') ?? NaN,
  };
}

async function idleRound(stack: JetStreamStack, pool: StreamClientPool): Promise<IdleRound> {
  await stack.restartGateway();
  await delay(SETTLE_MS);
  const before = await gatewayMetrics(stack);
  const streams = await pool.open(targets(stack.gateway), settings.idleStreams);
  await delay(SETTLE_MS);
  const after = await gatewayMetrics(stack);
  await pool.closeStreams();
  await waitFor(async () => (await gatewayMetrics(stack)).streams === 0, 'the gateway to see every stream closed', 60_000, 200);
  return {
    streams,
    streamsAtGateway: after.streams,
    rssBeforeBytes: before.rss,
    rssAfterBytes: after.rss,
    heapBeforeBytes: before.heapUsed,
    heapAfterBytes: after.heapUsed,
    loadAverage: loadavg(),
    rssBytesPerStream: (after.rss - before.rss) / streams.opened,
    heapBytesPerStream: (after.heapUsed - before.heapUsed) / streams.opened,
  };
}

/** Each block's deliveries to every stream, in ms after its acknowledgement, by area. */
function latencies(published: PublishedBlock[], deliveries: Deliveries): Array<Record<string, number[]>> {
  return published.map((block) =>
    Object.fromEntries(
      BENCH_AREAS.map((area) => [area.name, (deliveries.times.get(`${area.name}|${block.event}|${block.id}`) ?? []).map((at) => at - block.ackAt)]),
    ),
  );
}

async function deliveryRound(stack: JetStreamStack, pool: StreamClientPool): Promise<DeliveryRound> {
  const streams = await pool.open(targets(stack.gateway), settings.liveStreams);
  await pool.deliveries();
  const stopWatching = await watchStack(stack);
  const published: PublishedBlock[] = [];
  for (let i = 0; i < settings.blocks; i += 1) {
    published.push(await stack.publisher.apply());
    await delay(settings.blockSpacingMs);
  }
  await delay(DRAIN_MS);
  const stackFigures = await stopWatching();
  const deliveries = await pool.deliveries();
  await pool.closeStreams();
  const perBlock = latencies(published, deliveries);
  const all = perBlock.flatMap((byArea) => Object.values(byArea).flat());
  // A block some stream never received has no last delivery: counted apart.
  const complete = perBlock.map((byArea) => Object.values(byArea).flat()).filter((times) => times.length === streams.opened);
  const perArea = Object.fromEntries(BENCH_AREAS.map((area) => [area.name, distribution(perBlock.flatMap((byArea) => byArea[area.name]))]));
  return {
    streams,
    blocks: published.length,
    deliveries: all.length,
    missing: published.length * streams.opened - all.length,
    incompleteBlocks: published.length - complete.length,
    ...stackFigures,
    loadAverage: loadavg(),
    endedByServer: deliveries.ended,
    lastDeliveryMs: distribution(complete.map((times) => Math.max(...times))),
    allDeliveriesMs: distribution(all),
    perAreaMs: perArea,
  };
}

async function main(): Promise<void> {
  const startedAt = new Date().toISOString();
  const gatewayEnv = { EVENTS_MAX_PER_CLIENT: String(settings.idleStreams * 2) };
  const stack = await startJetStreamStack({ blocks: settings.ledgerBlocks, logLevel: settings.logLevel, gatewayEnv });
  const pool = StreamClientPool.start(settings.clientProcesses);
  const result: StreamsResult = { startedAt, machine: machine(), settings, gatewayEnv, idle: [], delivery: [] };
  try {
    for (let round = 1; round <= settings.rounds; round += 1) {
      const idle = await idleRound(stack, pool);
      result.idle.push(idle);
      process.stdout.write(
        `round ${round} idle: ${idle.streams.positioned}/${idle.streams.requested} positioned, ${idle.rssBytesPerStream.toFixed(0)} B/stream\n`,
      );
      const delivery = await deliveryRound(stack, pool);
      result.delivery.push(delivery);
      const { lastDeliveryMs: last } = delivery;
      process.stdout.write(`round ${round} delivery: last p50 ${last.p50.toFixed(1)} p99 ${last.p99.toFixed(1)} max ${last.max.toFixed(1)} ms\n`);
    }
  } finally {
    await pool.stop();
    await stack.stop();
  }
  const files = writeResults('streams', startedAt, result, streamsReport(result));
  process.stdout.write(`${streamsReport(result)}\nresults written to ${files.join(', ')}\n`);
}

main().catch((error: Error) => {
  process.stderr.write(`${error.stack ?? error.message}\n`);
  process.exit(1);
});
