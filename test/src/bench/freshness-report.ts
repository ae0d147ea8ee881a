import { AREAS } from '@ledger-api/config';
import { distribution, showDistribution, showLoad, showRange, type Distribution } from './bench-stats';
import type { PacedLoadResult } from './paced-load';
import { processTable, type StackFigures } from './stack-metrics';

/** The figures of `bench:freshness` and their markdown form. */

/** The freshness target: acknowledgement → first answer at the height, p99 per area. */
export const TARGET_P99_MS = 25;

export interface MeasuredEvent {
  event: 'block.applied' | 'block.reverted';
  heightAfter: number;
  /** By area, ms from the acknowledgement to the first answer at heightAfter; null when none came within the deadline. */
  freshnessMs: Record<string, number | null>;
  /** ms from the acknowledgement to a pull consumer of the stream receiving the event (see StageClock). */
  consumerMs: number | null;
  /** By area, ms from the acknowledgement to the service's live stream sending the event. */
  serviceMs: Record<string, number | null>;
  /** By area, ms from the acknowledgement to the first answer at heightAfter of the service itself (the same read, not through the gateway). */
  serviceAnswerMs: Record<string, number | null>;
  /** By area, ms from the acknowledgement to the gateway's live stream sending the event. */
  gatewayMs: Record<string, number | null>;
  /** By area, whether the event changed it (see StageClock.changed); null when not known. */
  changedArea: Record<string, boolean | null>;
  /** By area, requests the edge proxied (misses) from the event's publish to the next one's. */
  edgeMisses: Record<string, number>;
}

/** One area's events, stage by stage; `answer` is the freshness itself. */
export interface AreaStages {
  consumer: Distribution;
  service: Distribution;
  serviceAnswer: Distribution;
  gateway: Distribution;
  answer: Distribution & { unseen: number };
}

const STAGES = ['consumer', 'service', 'serviceAnswer', 'gateway', 'answer'] as const;

export function summarize(events: MeasuredEvent[]): Record<string, AreaStages> {
  const seen = (values: Array<number | null>) => values.filter((ms): ms is number => ms !== null);
  const areas = Object.keys(events[0]?.freshnessMs ?? {});
  return Object.fromEntries(
    areas.map((area) => {
      const answers = seen(events.map((event) => event.freshnessMs[area]));
      const stages: AreaStages = {
        consumer: distribution(seen(events.map((event) => event.consumerMs))),
        service: distribution(seen(events.map((event) => event.serviceMs[area]))),
        serviceAnswer: distribution(seen(events.map((event) => event.serviceAnswerMs[area]))),
        gateway: distribution(seen(events.map((event) => event.gatewayMs[area]))),
        answer: { ...distribution(answers), unseen: events.length - answers.length },
      };
      return [area, stages];
    }),
  );
}

export interface FreshnessRound extends StackFigures {
  load: PacedLoadResult;
  /** Whether the load ran until the last event was measured. */
  loadCoveredEvents: boolean;
  loadAverage: number[];
  /** Requests of the polling clients. */
  polls: number;
  perArea: Record<string, AreaStages>;
  events: MeasuredEvent[];
}

export interface FreshnessResult {
  startedAt: string;
  machine: { node: string; cpus: number; commit: string };
  settings: Record<string, number | string>;
  /** Added to the gateway's environment beside RATE_LIMIT_PER_MINUTE=0. */
  gatewayEnv: Record<string, string>;
  requestMix?: string[];
  rounds: FreshnessRound[];
}

function roundRows(rounds: FreshnessRound[]): string[] {
  const lines = [
    '| round | load req/s | load errors | load p50 / p99 ms | edge hit / miss / bypass | edge misses per event | load average | events (reverts) | ' +
      `${AREAS.map((area) => `${area.name} p50 / p99 / max`).join(' | ')} | unseen |`,
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  rounds.forEach((round, index) => {
    const { load, edge, perArea } = round;
    const reverts = round.events.filter((event) => event.event === 'block.reverted').length;
    const unseen = Object.values(perArea).reduce((total, stages) => total + stages.answer.unseen, 0);
    lines.push(
      `| ${index + 1} | ${load.requestsPerSecond.toFixed(0)} | ${load.errors} | ${load.latencyMs.p50} / ${load.latencyMs.p99} | ` +
        `${edge.hit ?? 0} / ${edge.miss ?? 0} / ${edge.bypass ?? 0} | ${((edge.miss ?? 0) / round.events.length).toFixed(0)} | ` +
        `${showLoad(round.loadAverage)} | ` +
        `${round.events.length} (${reverts}) | ` +
        `${AREAS.map((area) => showDistribution(perArea[area.name].answer)).join(' | ')} | ${unseen} |`,
    );
  });
  return lines;
}

function summary(rounds: FreshnessRound[]): string[] {
  const areas = Object.keys(rounds[0]?.perArea ?? {});
  const lines = [`| area | p50 ms | p99 ms | max ms | p99 ≤ ${TARGET_P99_MS} ms |`, '| --- | --- | --- | --- | --- |'];
  for (const area of areas) {
    const of = (pick: (d: Distribution) => number) => rounds.map((round) => pick(round.perArea[area].answer));
    const met = of((d) => d.p99).every((p99) => p99 <= TARGET_P99_MS);
    lines.push(
      `| ${area} | ${showRange(of((d) => d.p50))} | ${showRange(of((d) => d.p99))} | ${showRange(of((d) => d.max))} | ${met ? 'yes' : 'NO'} |`,
    );
  }
  const rates = rounds.map((round) => round.load.requestsPerSecond);
  const errors = rounds.map((round) => round.load.errors);
  lines.push('', `Load: ${showRange(rates, 0)} req/s achieved, ${showRange(errors, 0)} errors per round.`);
  return lines;
}

function stageRows(rounds: FreshnessRound[]): string[] {
  const lines = [
    "| area | consumer received | service stream sent | service's own first fresh answer | gateway stream sent | first fresh answer (gateway) | service apply, mean ms |",
    '| --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const area of Object.keys(rounds[0]?.perArea ?? {})) {
    const cell = (stage: (typeof STAGES)[number]) => {
      const of = (pick: (d: Distribution) => number) => showRange(rounds.map((round) => pick(round.perArea[area][stage])));
      return `${of((d) => d.p50)} / ${of((d) => d.p99)}`;
    };
    lines.push(
      `| ${area} | ${STAGES.map(cell).join(' | ')} | ${showRange(
        rounds.map((round) => round.applyMeanMs[area]),
        2,
      )} |`,
    );
  }
  return lines;
}

/** An area's events of one round that changed it (or did not), and the edge's misses after them. */
function missesAfter(round: FreshnessRound, area: string, changed: boolean): { blocks: number; misses: number } {
  const events = round.events.filter((event) => event.changedArea[area] === changed);
  return { blocks: events.length, misses: events.reduce((total, event) => total + event.edgeMisses[area], 0) };
}

const perBlock = ({ blocks, misses }: { blocks: number; misses: number }) => (blocks === 0 ? '-' : (misses / blocks).toFixed(2));

function edgeMissRows(rounds: FreshnessRound[]): string[] {
  const lines = [
    '| round | area | blocks that changed it | misses per such block | blocks that did not | misses per such block (target 0) |',
    '| --- | --- | --- | --- | --- | --- |',
  ];
  rounds.forEach((round, index) => {
    for (const area of Object.keys(round.perArea)) {
      const [changed, untouched] = [missesAfter(round, area, true), missesAfter(round, area, false)];
      lines.push(`| ${index + 1} | ${area} | ${changed.blocks} | ${perBlock(changed)} | ${untouched.blocks} | ${perBlock(untouched)} |`);
    }
  });
  return lines;
}

const gatewaySettings = (env: Record<string, string>) =>
  Object.entries(env)
    .map(([name, value]) => `, ${name}=${value}`)
    .join('');

export function freshnessReport(result: FreshnessResult): string {
  const { machine, settings } = result;
  const lines = [
    `# bench:freshness ${result.startedAt}`,
    '',
    `Commit ${machine.commit}; Node ${machine.node}, ${machine.cpus} CPUs; gateway (RATE_LIMIT_PER_MINUTE=0${gatewaySettings(result.gatewayEnv)}, defaults otherwise: edge cache on) ` +
      `and services (ROLE=all, embedded store, ledger on NATS JetStream) on one machine with the load and the measuring clients; ` +
      `log level ${settings.logLevel}; ${settings.rounds} round(s). All load on 127.0.0.1.`,
    '',
    `Load: ${settings.rate} req/s (autocannon, overallRate, ${settings.connections} connections, its own process) over ` +
      `a cycle of ${result.requestMix?.length ?? 0} requests of ${new Set(result.requestMix).size} distinct reads: assets by id, asset lists, collections, ` +
      'guardian groups and users, exchange auctions. ' +
      `Meanwhile ${settings.events} ledger events ${settings.eventSpacingMs} ms apart, every ${settings.revertEvery}th a revert; ` +
      'for each, one client per area polls `GET /api/guardian/groups`, `/api/nft/collections`, `/api/nft/exchange/auctions` ' +
      'from just before the publish until X-Block-Height shows the event (its height, or height - 1 after a revert).',
    '',
    'Freshness: ms from the JetStream acknowledgement of the publish to the first answer at that height.',
    '',
    '## Per round',
    '',
    ...roundRows(result.rounds),
    '',
    '## Median (range) of the rounds',
    '',
    ...summary(result.rounds),
    '',
    '## Edge misses per block',
    '',
    "Requests the gateway's edge proxied (`edge_cache_requests_total{result=\"miss\"}`) from each event's publish to the next one's, " +
      "by area, apart for events that changed the area's data (as the commit id of the service's live event says) " +
      'and events that did not. Pages of an area a block did not change stay valid, so after such a block the target is 0 ' +
      '(the mix has no expiry flags nor keyset walks, the answers kept for one block only).',
    '',
    ...edgeMissRows(result.rounds),
    '',
    '## Where the time goes',
    '',
    'ms from the acknowledgement, p50 / p99, median (range) of the rounds: a pull consumer of the ledger library on the same stream ' +
      "(default batch and expiry, in the benchmark process) receiving the event; the service's own live stream sending it (the projector " +
      "has committed it); the service's first answer at its height when asked directly (the same read, polled beside the gateway's); " +
      "the gateway's public stream sending it (its commit feed has it); the first answer at its height through the gateway.",
    '',
    ...stageRows(result.rounds),
    '',
    "The stack's processes over each round (load, polls and events), median (range) of the rounds:",
    '',
    ...processTable(result.rounds),
    '',
  ];
  return `${lines.join('\n')}\n`;
}
