import { blockTimestampFields } from '@ledger-api/config';
import { z } from 'zod';

/**
 * The live stream of committed blocks (docs/behaviour.md section 9), in the terms both
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
 * The retry a stream ends with at shutdown, plus up to SHUTDOWN_RETRY_SPREAD_MS at random:
 * short, so its clients are soon back on another replica, and spread, so they do not all
 * land there in the same instant.
 */
export const SHUTDOWN_RETRY_MS = 250;
export const SHUTDOWN_RETRY_SPREAD_MS = 1_000;

/** The one query key a stream takes: Last-Event-ID for clients that cannot set headers (the header wins). */
export const LAST_EVENT_ID_QUERY_KEY = 'lastEventId';

/**
 * A commit named across processes: the read model it belongs to, the cache generation it
 * settled, and the generation of the newest commit up to it that changed the area's data
 * (`changedAt`; the commit's own when absent). Its text form is an event id and the commit
 * header's value: `<read model>-<generation>`, with `.<changedAt>` after it when the commit
 * left the data as an earlier one had made it.
 */
export interface CommitId {
  readModel: string;
  generation: number;
  changedAt?: number;
}

const COMMIT_ID = /^([\w]{0,64})-(\d{1,15})(?:\.(\d{1,15}))?$/;

/** Whether `known` is `commit` or a later commit of the same read model. */
export function commitReaches(known: CommitId, commit: CommitId): boolean {
  return known.readModel === commit.readModel && known.generation >= commit.generation;
}

/** The generation whose data the commit reads: what a page that holds until the data changes is keyed by. */
export function dataGenerationOf({ generation, changedAt }: CommitId): number {
  return changedAt ?? generation;
}

export function formatCommitId(commit: CommitId): string {
  const { readModel, generation } = commit;
  const changedAt = dataGenerationOf(commit);
  return changedAt === generation ? `${readModel}-${generation}` : `${readModel}-${generation}.${changedAt}`;
}

/** undefined for anything that is not a commit id (a client's Last-Event-ID is any text). */
export function parseCommitId(text: string | undefined): CommitId | undefined {
  const match = text === undefined ? null : COMMIT_ID.exec(text);
  if (!match) return undefined;
  const [, readModel, generationText, changedAtText] = match;
  const generation = Number(generationText);
  if (changedAtText === undefined) return { readModel, generation };
  const changedAt = Number(changedAtText);
  // A commit cannot read data a later commit made.
  return changedAt <= generation ? { readModel, generation, changedAt } : undefined;
}

const BLOCK_ID_EXAMPLE = '4351b0cf8c37a518cd30cbde10886f757aa73e22492c30ca973a586f831b2321';
const NEXT_BLOCK_ID_EXAMPLE = '136df0b819b55e0c9d0e777d11d9a73b96695f8fc4da37ec51097adcddf621ff';
const TRANSACTION_ID_EXAMPLE = '022c72dacc64a52ba4be0f2dd903a5993e6eaa75f5c2df4bf9aef857514a9c4c';

/**
 * The data of each event, as clients parse it: the OpenAPI document's schemas of the
 * stream are generated from these, and the services' tests check what they send against them.
 */
export const streamPositionSchema = z
  .object({
    height: z.number().int().min(0).meta({ description: 'Height of the last block the area applied; 0 before the first' }),
    id: z.string().meta({ description: 'Id of that block (64 hex characters); empty before the first block' }),
  })
  .meta({
    id: 'StreamPosition',
    title: 'Stream position',
    description: 'Where the area stands: the data of `position` and of `reset`',
    examples: [{ height: 2000, id: BLOCK_ID_EXAMPLE }],
  });

const blockTimestampSchema = z
  .object({
    ...blockTimestampFields,
    epoch: blockTimestampFields.epoch.meta({ description: 'Seconds since the ledger epoch (2017-03-21T13:00:00Z)' }),
  })
  .meta({ description: "The block's time" });

export const blockAppliedSchema = z
  .object({
    height: z.number().int().min(1).meta({ description: 'Height of the block' }),
    id: z.string().meta({ description: 'Id of the block (64 hex characters)' }),
    timestamp: blockTimestampSchema,
    transactions: z
      .array(z.string().meta({ description: 'Transaction id (64 hex characters)' }))
      .meta({ description: "Ids of the block's transactions that this area projects, in ledger order; empty when none" }),
  })
  .meta({
    id: 'BlockApplied',
    title: 'Block applied',
    description: 'A block the area applied: the data of `block.applied`',
    examples: [
      {
        height: 2001,
        id: NEXT_BLOCK_ID_EXAMPLE,
        timestamp: { epoch: 124471592, unix: 1614572792, human: '2021-03-01T04:26:32.000Z' },
        transactions: [TRANSACTION_ID_EXAMPLE],
      },
    ],
  });

export const blockRevertedSchema = z
  .object({
    height: z.number().int().min(1).meta({ description: 'Height of the block taken back' }),
    id: z.string().meta({ description: 'Id of the block taken back (64 hex characters)' }),
  })
  .meta({
    id: 'BlockReverted',
    title: 'Block reverted',
    description: 'A block the area took back: the data of `block.reverted`',
    examples: [{ height: 2001, id: NEXT_BLOCK_ID_EXAMPLE }],
  });

const eventId = z.string().meta({
  description: "The id of the event: opaque, unique within the area's history. Sent back as `Last-Event-ID`, it resumes the stream after this event",
});

/** One event of the stream as a client reads it: its `event` name, its `id`, and its `data` parsed as JSON. */
const frame = <Name extends string, Data extends z.ZodType>(event: Name, data: Data, description: string) =>
  z.object({ event: z.literal(event), id: eventId, data }).meta({ description });

export const liveEventSchema = z
  .discriminatedUnion('event', [
    frame('position', streamPositionSchema, "First event of a stream opened without `Last-Event-ID`: the area's current position"),
    frame(
      'reset',
      streamPositionSchema,
      "First event of a stream whose `Last-Event-ID` it cannot resume from (too old, from another read model, malformed): the area's current position. Re-read what you need",
    ),
    frame('block.applied', blockAppliedSchema, 'The area applied a block'),
    frame('block.reverted', blockRevertedSchema, 'The area took a block back'),
  ])
  .meta({
    id: 'LiveEvent',
    title: 'Live event',
    description:
      'One event of a live stream, by the fields of its Server-Sent Events frame: `event`, `id`, and `data` parsed as JSON, whose shape the event name gives',
  });

/**
 * Why a stream was refused, and after how many seconds to try again: the data of the
 * `unavailable` event a refused stream ends with (docs/behaviour.md section 9).
 */
export const streamUnavailableSchema = z
  .object({
    reason: z.string().meta({ description: 'Why the stream cannot be served now' }),
    retryAfter: z
      .number()
      .int()
      .min(1)
      .meta({ description: 'Seconds to wait before reconnecting (also the `retry` frame before it, and `Retry-After`)' }),
  })
  .meta({
    id: 'StreamUnavailable',
    title: 'Stream unavailable',
    description:
      'The data of `unavailable`, the last event of a stream that could not be served now: reconnect after `retryAfter` seconds, with the same Last-Event-ID',
    examples: [{ reason: 'At most 8 live streams per client', retryAfter: 10 }],
  });

export type StreamUnavailableData = z.output<typeof streamUnavailableSchema>;

/** The last event of a refused stream, by the fields of its frame: it has no `id`. */
export const streamUnavailableEventSchema = z.object({ event: z.literal('unavailable'), data: streamUnavailableSchema }).meta({
  id: 'StreamUnavailableEvent',
  title: 'Stream unavailable event',
  description: 'The one event of a stream that cannot be served now, after its `retry`; the stream ends after it',
});

/** How long a client past its own cap of streams waits (docs/behaviour.md section 9): it holds streams already. */
export const PER_CLIENT_RETRY_AFTER_SECONDS = 10;

/**
 * The whole body of a refused stream: the retry that makes a browser's EventSource wait as
 * long as asked, then `unavailable`. It has no id, so the client's Last-Event-ID stays.
 */
export function unavailableFrames(refusal: StreamUnavailableData): string {
  return `retry: ${refusal.retryAfter * 1000}\n\nevent: unavailable\ndata: ${JSON.stringify(refusal)}\n\n`;
}

export type LiveEvent = z.output<typeof liveEventSchema>;

export type StreamEventName = LiveEvent['event'];

/**
 * One event of the stream as its ends hold it: the commit it announces (its id on the wire) and
 * the `data` clients parse, typed by the schemas: a position, which `block.applied` extends
 * with the block's timestamp and transactions.
 */
export interface StreamEvent {
  event: StreamEventName;
  commit: CommitId;
  data: z.output<typeof streamPositionSchema> & Partial<Pick<z.output<typeof blockAppliedSchema>, 'timestamp' | 'transactions'>>;
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
