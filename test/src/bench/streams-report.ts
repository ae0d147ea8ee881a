import { showDistribution, showLoad, showRange, type Distribution } from './bench-stats';
import { processTable, type StackFigures } from './stack-metrics';
import type { OpenSummary } from './stream-client-pool';

/** The figures of `bench:streams` and their markdown form. */

export interface IdleRound {
  streams: OpenSummary;
  /** live_streams_open of the gateway's /metrics once the streams were open. */
  streamsAtGateway: number;
  rssBeforeBytes: number;
  rssAfterBytes: number;
  heapBeforeBytes: number;
  heapAfterBytes: number;
  rssBytesPerStream: number;
  heapBytesPerStream: number;
  /** The machine's load average (1, 5, 15 min) at the end of the round: other work shares its 2 CPUs. */
  loadAverage: number[];
}

export interface DeliveryRound extends StackFigures {
  streams: OpenSummary;
  blocks: number;
  deliveries: number;
  /** Block events some open stream never received. */
  missing: number;
  /** Blocks not every stream received: left out of lastDeliveryMs. */
  incompleteBlocks: number;
  /** Streams the server ended while blocks were published. */
  endedByServer: number;
  /** Per block, acknowledgement → the last stream receiving it. */
  lastDeliveryMs: Distribution;
  /** Every delivery of every block, acknowledgement → that stream receiving it. */
  allDeliveriesMs: Distribution;
  perAreaMs: Record<string, Distribution>;
  loadAverage: number[];
}

export interface StreamsResult {
  startedAt: string;
  machine: { node: string; cpus: number; commit: string };
  settings: Record<string, number | string>;
  gatewayEnv: Record<string, string>;
  idle: IdleRound[];
  delivery: DeliveryRound[];
}

const mib = (bytes: number) => `${(bytes / 1024 ** 2).toFixed(1)} MiB`;

function idleSection(idle: IdleRound[]): string[] {
  const lines = [
    '## a. Memory per idle stream',
    '',
    'A fresh gateway per round; memory read 5 s after the last stream got its position event (RSS from /proc, heap from /metrics, no forced GC).',
    '',
    '| round | opened / positioned / at gateway | refused | open time | RSS before → after | RSS per stream | heap before → after | heap per stream | load average |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  idle.forEach((round, index) => {
    const { streams } = round;
    lines.push(
      `| ${index + 1} | ${streams.opened} / ${streams.positioned} / ${round.streamsAtGateway} | ${JSON.stringify(streams.refused)} | ` +
        `${(streams.openedMs / 1000).toFixed(1)} s | ${mib(round.rssBeforeBytes)} → ${mib(round.rssAfterBytes)} | ` +
        `${(round.rssBytesPerStream / 1024).toFixed(1)} KiB | ${mib(round.heapBeforeBytes)} → ${mib(round.heapAfterBytes)} | ` +
        `${(round.heapBytesPerStream / 1024).toFixed(1)} KiB | ${showLoad(round.loadAverage)} |`,
    );
  });
  lines.push(
    '',
    `Per idle stream, median (range) of the rounds: RSS ${showRange(idle.map((r) => r.rssBytesPerStream / 1024))} KiB, ` +
      `heap ${showRange(idle.map((r) => r.heapBytesPerStream / 1024))} KiB.`,
    '',
  );
  return lines;
}

function deliverySection(delivery: DeliveryRound[]): string[] {
  const lines = [
    '## b. Delivery latency',
    '',
    'Milliseconds from the JetStream acknowledgement of each published block to its `block.applied` event reaching the streams (p50 / p99 / max).',
    '',
    '| round | streams | blocks | deliveries | missing | last delivery per block | all deliveries | per area, all deliveries | load average |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  delivery.forEach((round, index) => {
    const areas = Object.entries(round.perAreaMs).map(([area, d]) => `${area} ${showDistribution(d)}`);
    lines.push(
      `| ${index + 1} | ${round.streams.positioned} | ${round.blocks} | ${round.deliveries} | ${round.missing} | ` +
        `${showDistribution(round.lastDeliveryMs)} | ${showDistribution(round.allDeliveriesMs)} | ${areas.join('; ')} | ${showLoad(round.loadAverage)} |`,
    );
  });
  const of = (pick: (round: DeliveryRound) => number) => showRange(delivery.map(pick));
  lines.push(
    '',
    `Median (range) of the rounds, ms. Last delivery per block: p50 ${of((r) => r.lastDeliveryMs.p50)}, ` +
      `p99 ${of((r) => r.lastDeliveryMs.p99)}, max ${of((r) => r.lastDeliveryMs.max)}. ` +
      `All deliveries: p50 ${of((r) => r.allDeliveriesMs.p50)}, p99 ${of((r) => r.allDeliveriesMs.p99)}, max ${of((r) => r.allDeliveriesMs.max)}.`,
    '',
    "The stack's processes while the blocks were published, median (range) of the rounds:",
    '',
    ...processTable(delivery),
    '',
  );
  return lines;
}

export function streamsReport(result: StreamsResult): string {
  const { machine, settings } = result;
  const lines = [
    `# bench:streams ${result.startedAt}`,
    '',
    `Commit ${machine.commit}; Node ${machine.node}, ${machine.cpus} CPUs; gateway and services (ROLE=all, embedded store, ledger on ` +
      `NATS JetStream) on one machine with the stream clients (${settings.clientProcesses} processes); log level ${settings.logLevel}; ` +
      `${settings.rounds} round(s). Gateway settings: ${JSON.stringify(result.gatewayEnv)}, RATE_LIMIT_PER_MINUTE=0. All load on 127.0.0.1.`,
    '',
    ...idleSection(result.idle),
    ...deliverySection(result.delivery),
  ];
  return `${lines.join('\n')}\n`;
}
