import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  commitReaches,
  eventFrame,
  KEEP_ALIVE_FRAME,
  KEEP_ALIVE_INTERVAL_MS,
  LAST_EVENT_ID_QUERY_KEY,
  parseCommitId,
  RETRY_FRAME,
  SHUTDOWN_RETRY_MS,
  SHUTDOWN_RETRY_SPREAD_MS,
  STREAM_HEADERS,
  unavailableFrames,
  type CommitId,
  type StreamEvent,
  type StreamUnavailableData,
} from './live-events';

/** What a live stream is served from: the service's commit feed, or the gateway's copy of it. */
export interface LiveEventSource {
  /** The newest commit announced, as the data of a `position` event. */
  position(): Omit<StreamEvent, 'event'>;
  /** The events after `commit`, through at least the position of now; undefined when they can no longer all be had. */
  eventsAfter(commit: CommitId): Promise<StreamEvent[] | undefined>;
  /** Each event as it is announced; undefined when the source lost track of the read model (the stream must end). */
  subscribe(listener: (event: StreamEvent | undefined) => void): () => void;
}

export interface LiveStreamOptions {
  keepAliveMs?: number;
  /** A client that reads slower than events come gets cut off past this many unsent bytes, and resumes when it reconnects. */
  maxBufferedBytes?: number;
}

const DEFAULT_MAX_BUFFERED_BYTES = 1024 * 1024;

/** What a stream asked for once its process has begun to shut down is told: another replica serves it. */
const SHUTTING_DOWN: StreamUnavailableData = { reason: 'Shutting down: reconnect to resume on another replica', retryAfter: 1 };

/** The first query key of a stream request that is not `lastEventId`, which the stream answers 422 for. */
export function unexpectedStreamQueryKey(keys: Iterable<string>): string | undefined {
  for (const key of keys) if (key !== LAST_EVENT_ID_QUERY_KEY) return key;
  return undefined;
}

/** Where a client resumes from: its Last-Event-ID header, else (it cannot set headers) the `lastEventId` query key. */
function resumeIdOf(req: IncomingMessage): string | undefined {
  const header = req.headers['last-event-id'];
  if (typeof header === 'string') return header;
  return new URL(req.url ?? '/', 'http://stream').searchParams.get(LAST_EVENT_ID_QUERY_KEY) ?? undefined;
}

/**
 * Serves live streams (docs/behaviour.md section 9) and keeps count of the open ones, so a
 * shutdown can end them all cleanly. A client sent a Last-Event-ID it can resume from gets
 * every event after it; any other client opens on the current position (`position`, or
 * `reset` when its id could not be resumed from), then live events in commit order.
 *
 * A stream that cannot be served now is still a 200 event stream, one that ends at once
 * with `unavailable`: a browser's EventSource gives up for good on any other answer, and
 * retries this one after the `retry` it carries.
 */
export class LiveStreams {
  private readonly open = new Set<ServerResponse>();
  private shuttingDown = false;

  constructor(private readonly options: LiveStreamOptions = {}) {}

  get size(): number {
    return this.open.size;
  }

  /**
   * At shutdown, once the process has left the load balancers: ends every open stream with a
   * short retry, so its client reconnects to another replica and resumes there, and refuses
   * the streams asked for from now on.
   */
  endAll(): void {
    this.shuttingDown = true;
    for (const res of this.open) res.end(`retry: ${SHUTDOWN_RETRY_MS + Math.floor(Math.random() * SHUTDOWN_RETRY_SPREAD_MS)}\n\n`);
  }

  /** Answers a stream that cannot be served now, with why and when to try again (also in Retry-After). */
  refuse(req: IncomingMessage, res: ServerResponse, refusal: StreamUnavailableData): void {
    res.writeHead(200, { ...STREAM_HEADERS, 'Retry-After': String(refusal.retryAfter) });
    res.end(req.method === 'HEAD' ? undefined : unavailableFrames(refusal));
  }

  async serve(req: IncomingMessage, res: ServerResponse, source: LiveEventSource): Promise<void> {
    if (this.shuttingDown) return this.refuse(req, res, SHUTTING_DOWN);
    res.writeHead(200, STREAM_HEADERS);
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    this.open.add(res);
    res.write(RETRY_FRAME);
    const session = new StreamSession(res, this.options.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES);
    const unsubscribe = source.subscribe((event) => session.live(event));
    const keepAlive = setInterval(() => res.write(KEEP_ALIVE_FRAME), this.options.keepAliveMs ?? KEEP_ALIVE_INTERVAL_MS);
    res.once('close', () => {
      this.open.delete(res);
      unsubscribe();
      clearInterval(keepAlive);
    });
    await session.open(source, resumeIdOf(req));
  }
}

/** One client's stream: what it was sent last, and the live events that came while its opening was read. */
class StreamSession {
  private last: CommitId | undefined;
  private held: StreamEvent[] | undefined = [];

  constructor(
    private readonly res: ServerResponse,
    private readonly maxBufferedBytes: number,
  ) {}

  async open(source: LiveEventSource, lastEventId: string | undefined): Promise<void> {
    const position = source.position();
    const resumeFrom = parseCommitId(lastEventId);
    const resumable = resumeFrom && commitReaches(position.commit, resumeFrom);
    const replayed = resumable ? await source.eventsAfter(resumeFrom).catch(() => undefined) : undefined;
    if (replayed) {
      this.last = resumeFrom;
      for (const event of replayed) this.send(event);
    } else {
      this.send({ ...position, event: lastEventId === undefined ? 'position' : 'reset' });
    }
    const held = this.held ?? [];
    this.held = undefined;
    for (const event of held) this.send(event);
  }

  live(event: StreamEvent | undefined): void {
    if (event === undefined) this.res.end();
    else if (this.held) this.held.push(event);
    else this.send(event);
  }

  /** Events at or before the last one sent were sent already (a replay and live events overlap). */
  private send(event: StreamEvent): void {
    if (this.res.writableEnded) return;
    const { last } = this;
    const isOpening = event.event === 'position' || event.event === 'reset';
    if (!isOpening && last && commitReaches(last, event.commit)) return;
    this.last = event.commit;
    this.res.write(eventFrame(event));
    if (this.res.writableLength > this.maxBufferedBytes) this.res.destroy();
  }
}
