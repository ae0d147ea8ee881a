/**
 * The live stream of committed blocks (api-behaviour.md section 9), in the terms both
 * its ends share: the service that writes it and the gateway that reads it and fans it out.
 */

/**
 * The commit an API answer was rendered at, as a service says it to the gateway (which
 * strips it): the same value as a stream event's id. Absent when the page may mix two
 * ledger states (read while a block was being written).
 */
export const LEDGER_COMMIT_HEADER = 'x-ledger-commit';

/** How long a client waits before it reconnects (the stream's first frame). */
export const STREAM_RETRY_MS = 2_000;

/** What an idle stream carries at least this often, so no proxy takes it for dead. */
export const KEEP_ALIVE_INTERVAL_MS = 15_000;

export const KEEP_ALIVE_FRAME = ': keep-alive\n\n';

export const RETRY_FRAME = `retry: ${STREAM_RETRY_MS}\n\n`;

/**
 * A commit named across processes: the read model it belongs to, and the cache generation
 * it settled. Its text form is an event id and the commit header's value.
 */
export interface CommitId {
  readModel: string;
  generation: number;
}

const COMMIT_ID = /^([\w]{0,64})-(\d{1,15})$/;

export function formatCommitId({ readModel, generation }: CommitId): string {
  return `${readModel}-${generation}`;
}

/** undefined for anything that is not a commit id (a client's Last-Event-ID is any text). */
export function parseCommitId(text: string | undefined): CommitId | undefined {
  const match = text === undefined ? null : COMMIT_ID.exec(text);
  return match ? { readModel: match[1], generation: Number(match[2]) } : undefined;
}

export type StreamEventName = 'position' | 'reset' | 'block.applied' | 'block.reverted';

/** One event of the stream; `data` is what clients parse. */
export interface StreamEvent {
  event: StreamEventName;
  commit: CommitId;
  data: { height: number; id: string; timestamp?: unknown; transactions?: string[] };
}

/** The event as it goes on the wire. */
export function eventFrame({ event, commit, data }: StreamEvent): string {
  return `event: ${event}\nid: ${formatCommitId(commit)}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** The headers of every live stream answer: never cached, never compressed, never buffered on the way. */
export const STREAM_HEADERS: Readonly<Record<string, string>> = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  'Cache-Control': 'no-store',
  'X-Accel-Buffering': 'no',
};
