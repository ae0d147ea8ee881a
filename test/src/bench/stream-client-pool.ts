import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';

/** The requests and replies between StreamClientPool and its stream-clients processes. */
export interface StreamTarget {
  area: string;
  url: string;
}

export type ClientRequest =
  { type: 'open'; targets: StreamTarget[]; count: number; offset: number; concurrency: number } | { type: 'deliveries' } | { type: 'close' };

export interface OpenSummary {
  requested: number;
  /** Streams answered 200 and still open. */
  opened: number;
  /** Streams whose `position` event arrived. */
  positioned: number;
  /** Streams not opened, by status or error code. */
  refused: Record<string, number>;
  openedMs: number;
}

export type ClientReply =
  | { type: 'opened'; summary: OpenSummary }
  | { type: 'deliveries'; entries: Array<[string, number[]]>; open: number; ended: number }
  | { type: 'closed' }
  | { type: 'failed'; message: string };

/** When each stream received each block event, `area|event|block id` → monotonicMs() times, and how many streams the server ended. */
export interface Deliveries {
  times: Map<string, number[]>;
  open: number;
  ended: number;
}

const WORKER = join(__dirname, 'stream-clients.js');
/** Opens in flight per process: a burst of thousands would overflow the gateway's accept queue. */
const OPEN_CONCURRENCY = 100;

/** Live-stream clients spread over child processes, so no one event loop reads them all. */
export class StreamClientPool {
  private constructor(private readonly workers: ChildProcess[]) {}

  static start(processes: number): StreamClientPool {
    return new StreamClientPool(Array.from({ length: processes }, () => fork(WORKER, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })));
  }

  /** Opens `count` streams in all, spread round-robin over the targets; resolves once each got its position. */
  async open(targets: StreamTarget[], count: number): Promise<OpenSummary> {
    const share = Math.ceil(count / this.workers.length);
    const replies = await Promise.all(
      this.workers.map((worker, index) => {
        const offset = index * share;
        const request: ClientRequest = {
          type: 'open',
          targets,
          count: Math.max(0, Math.min(share, count - offset)),
          offset,
          concurrency: OPEN_CONCURRENCY,
        };
        return ask(worker, request);
      }),
    );
    const summaries = replies.map((reply) => (reply.type === 'opened' ? reply.summary : unexpected(reply)));
    const refused: Record<string, number> = {};
    for (const summary of summaries) for (const [reason, n] of Object.entries(summary.refused)) refused[reason] = (refused[reason] ?? 0) + n;
    const sum = (pick: (summary: OpenSummary) => number) => summaries.reduce((total, summary) => total + pick(summary), 0);
    return {
      requested: count,
      opened: sum((s) => s.opened),
      positioned: sum((s) => s.positioned),
      refused,
      openedMs: Math.max(...summaries.map((s) => s.openedMs)),
    };
  }

  /** The delivery times noted since the last call. */
  async deliveries(): Promise<Deliveries> {
    const replies = await Promise.all(this.workers.map((worker) => ask(worker, { type: 'deliveries' })));
    const result: Deliveries = { times: new Map(), open: 0, ended: 0 };
    for (const reply of replies) {
      if (reply.type !== 'deliveries') unexpected(reply);
      for (const [key, times] of reply.entries) result.times.set(key, [...(result.times.get(key) ?? []), ...times]);
      result.open += reply.open;
      result.ended += reply.ended;
    }
    return result;
  }

  async closeStreams(): Promise<void> {
    await Promise.all(this.workers.map((worker) => ask(worker, { type: 'close' })));
  }

  /** Ends the processes: each exits when its channel closes. */
  async stop(): Promise<void> {
    await Promise.all(
      this.workers.map(async (worker) => {
        if (worker.exitCode !== null || worker.signalCode !== null) return;
        const exited = once(worker, 'exit');
        worker.disconnect();
        await exited;
      }),
    );
  }
}

/** Sends one request and waits for the reply; a process that exits first fails the wait. */
function ask(worker: ChildProcess, request: ClientRequest): Promise<ClientReply> {
  const reply = new Promise<ClientReply>((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`a stream client exited (code ${code}) before answering ${request.type}`));
    worker.once('exit', onExit);
    worker.once('message', (message: ClientReply) => {
      worker.off('exit', onExit);
      resolve(message);
    });
  });
  worker.send(request);
  return reply;
}

function unexpected(reply: ClientReply): never {
  throw new Error(reply.type === 'failed' ? `a stream client failed: ${reply.message}` : `unexpected reply ${reply.type}`);
}
