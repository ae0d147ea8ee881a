import { setTimeout as delay } from 'node:timers/promises';
import { openEventStream, type EventStreamConnection, type ReceivedEvent } from '@ledger-api/http';
import { monotonicMs } from './bench-stats';
import type { ClientReply, ClientRequest, OpenSummary } from './stream-client-pool';

/**
 * A child process of the stream benchmark holding many live streams, started
 * by StreamClientPool with an IPC channel. It opens streams when asked, notes
 * when each block event reaches each stream (monotonicMs, comparable with the
 * publisher's clock), hands those times over, and closes the streams. It
 * exits when the channel closes.
 */
const POSITION_DEADLINE_MS = 60_000;
const CLOSE_DEADLINE_MS = 20_000;

const open = new Set<EventStreamConnection>();
/** `area|event|block id` → when each stream received it. */
let deliveries = new Map<string, number[]>();
let positioned = 0;
let ended = 0;

function received(area: string, event: ReceivedEvent): void {
  const at = monotonicMs();
  if (event.event === 'position') {
    positioned += 1;
    return;
  }
  const { id } = JSON.parse(event.data) as { id: string };
  const key = `${area}|${event.event}|${id}`;
  const times = deliveries.get(key) ?? [];
  times.push(at);
  deliveries.set(key, times);
}

async function openOne(area: string, url: string, refused: Record<string, number>): Promise<void> {
  let connection: EventStreamConnection | undefined;
  const onEnd = () => {
    if (connection && open.delete(connection)) ended += 1;
  };
  try {
    connection = await openEventStream({ url, connectTimeoutMs: 30_000 }, { onEvent: (event) => received(area, event), onEnd });
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    refused[reason] = (refused[reason] ?? 0) + 1;
    return;
  }
  if (connection.status === 200) open.add(connection);
  else refused[`status ${connection.status}`] = (refused[`status ${connection.status}`] ?? 0) + 1;
}

async function openAll(request: Extract<ClientRequest, { type: 'open' }>): Promise<OpenSummary> {
  const started = monotonicMs();
  const refused: Record<string, number> = {};
  const positionedBefore = positioned;
  let next = 0;
  const opener = async () => {
    for (let index = next++; index < request.count; index = next++) {
      const target = request.targets[(request.offset + index) % request.targets.length];
      await openOne(target.area, target.url, refused);
    }
  };
  await Promise.all(Array.from({ length: request.concurrency }, opener));
  const openedMs = monotonicMs() - started;
  const deadline = Date.now() + POSITION_DEADLINE_MS;
  while (positioned - positionedBefore < open.size && Date.now() < deadline) await delay(50);
  return { requested: request.count, opened: open.size, positioned: positioned - positionedBefore, refused, openedMs };
}

async function closeAll(): Promise<void> {
  for (const connection of open) connection.close();
  const deadline = Date.now() + CLOSE_DEADLINE_MS;
  while (open.size > 0 && Date.now() < deadline) await delay(20);
  open.clear();
  ended = 0;
}

async function answer(request: ClientRequest): Promise<ClientReply> {
  if (request.type === 'open') return { type: 'opened', summary: await openAll(request) };
  if (request.type === 'deliveries') {
    const entries = [...deliveries];
    deliveries = new Map();
    return { type: 'deliveries', entries, open: open.size, ended };
  }
  await closeAll();
  return { type: 'closed' };
}

process.on('message', (request: ClientRequest) => {
  answer(request).then(
    (reply) => process.send!(reply),
    (error: Error) => process.send!({ type: 'failed', message: error.stack ?? error.message }),
  );
});
process.on('disconnect', () => {
  for (const connection of open) connection.close();
  process.exit(0);
});
