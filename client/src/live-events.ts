import { createParser, type EventSourceMessage } from 'eventsource-parser';
import type { components, paths } from './generated/schema';

/**
 * One event of an area's live stream, as the API document describes it: `event` names it
 * and gives the type of `data` (`position` and `reset`: StreamPosition, `block.applied`:
 * BlockApplied, `block.reverted`: BlockReverted); `id` is what the stream resumes after.
 */
export type LiveEvent = components['schemas']['LiveEvent'];

export type LiveEventName = LiveEvent['event'];

/** The event of one name, e.g. `LiveEventOf<'block.applied'>`. */
export type LiveEventOf<Name extends LiveEventName> = Extract<LiveEvent, { event: Name }>;

/** Why a stream could not be served now (its `unavailable` event), and how many seconds to wait before reconnecting. */
export type StreamUnavailable = components['schemas']['StreamUnavailable'];

/** The areas with a live stream, read from the document's paths: `guardian`, `nft`, `nft/exchange`. */
export type LiveArea = keyof paths extends infer Path ? (Path extends `/api/${infer Area}/events` ? Area : never) : never;

/** Why the iterator is about to connect again, and after how long. */
export interface Reconnect {
  delayMs: number;
  /** The status of a refused connection (429, 503 or another 5xx). */
  status?: number;
  /** What a stream that could not be served now said before it ended (a cap reached, the server starting or stopping). */
  unavailable?: StreamUnavailable;
  /** Why a connection failed or was cut off; none of this, status and unavailable when the server ended the stream. */
  error?: unknown;
  /** What the next connection resumes after. */
  lastEventId?: string;
}

export interface LiveEventsOptions {
  /** Resume after this event id (a LiveEvent's `id` kept from an earlier run); without it the stream opens on `position`. */
  lastEventId?: string;
  /** Ends the iteration: the iterator then returns, whatever it was waiting for. */
  signal?: AbortSignal;
  /** How long to wait before reconnecting until the server says (its `retry` field), in ms. */
  retryMs?: number;
  /**
   * A connection that carries nothing, not even a keep-alive comment (sent at least every 15 s),
   * for this long is taken for dead and replaced. In ms; 0 turns the check off.
   */
  idleTimeoutMs?: number;
  /** Sent with every request besides `Accept` and `Last-Event-ID`. */
  headers?: Record<string, string>;
  /** Told before each reconnection. */
  onReconnect?(reconnect: Reconnect): void;
  fetch?: typeof fetch;
}

/** A stream the iterator will not reconnect to: refused with a 4xx other than 429, or not an event stream at all. */
export class LiveEventsError extends Error {
  constructor(
    message: string,
    /** The answer's status, when there was one. */
    readonly status?: number,
  ) {
    super(message);
    this.name = 'LiveEventsError';
  }
}

const DEFAULT_RETRY_MS = 2_000;
const DEFAULT_IDLE_TIMEOUT_MS = 45_000;
// Keyed by every name the API document gives: a name it adds fails to compile until it is here.
const EVENT_NAMES: ReadonlySet<string> = new Set(
  Object.keys({ position: true, reset: true, 'block.applied': true, 'block.reverted': true } satisfies Record<LiveEventName, true>),
);

/**
 * The live stream of an area's committed blocks, as an async iterator of typed events:
 *
 * ```ts
 * for await (const event of liveEvents('http://127.0.0.1:4003', 'nft', { signal })) {
 *   if (event.event === 'block.applied') console.log(event.data.height, event.data.transactions);
 * }
 * ```
 *
 * It connects again by itself whenever the stream ends or fails: after the server's `retry`,
 * the `retryAfter` of an `unavailable` event (a stream that could not be served now: the
 * event is not given to the loop), or the `Retry-After` of a 429 or 503, resuming after the last event it gave with
 * `Last-Event-ID`, so no event is lost or repeated. A `reset` event says the stream could not
 * resume (the id was too old, or from another read model): re-read what you need. The
 * iteration ends when `signal` aborts or the loop is left; it throws LiveEventsError on an
 * answer it cannot retry (a 4xx other than 429).
 */
export async function* liveEvents(baseUrl: string, area: LiveArea, options: LiveEventsOptions = {}): AsyncGenerator<LiveEvent, void, undefined> {
  const url = new URL(`api/${area}/events`, baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
  const resume: ResumePoint = { lastEventId: options.lastEventId, retryMs: options.retryMs ?? DEFAULT_RETRY_MS };
  // Aborted when the caller's signal is, or when the loop is left, so no request outlives the iteration.
  const stopped = new AbortController();
  const stop = () => stopped.abort();
  options.signal?.addEventListener('abort', stop, { once: true });
  if (options.signal?.aborted) stop();
  try {
    while (!stopped.signal.aborted) {
      const reconnect = yield* connectOnce(url, options, resume, stopped.signal);
      if (stopped.signal.aborted) return;
      const delayMs = reconnect.delayMs ?? resume.retryMs;
      options.onReconnect?.({ ...reconnect, delayMs, lastEventId: resume.lastEventId });
      await sleep(delayMs, stopped.signal);
    }
  } finally {
    options.signal?.removeEventListener('abort', stop);
    stop();
  }
}

/** Where the next connection resumes, and how long it waits before it does until told otherwise: both change as events arrive. */
interface ResumePoint {
  lastEventId?: string;
  retryMs: number;
}

/** What the next reconnection waits for besides the stream's retry. */
type PendingReconnect = Omit<Reconnect, 'delayMs'> & { delayMs?: number };

/**
 * One connection: yields its events until it ends, fails or is refused, then says what the
 * next reconnection waits for. Throws LiveEventsError on an answer that cannot be retried.
 */
async function* connectOnce(
  url: URL,
  options: LiveEventsOptions,
  resume: ResumePoint,
  stopped: AbortSignal,
): AsyncGenerator<LiveEvent, PendingReconnect> {
  const idleTimeoutMs = options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  const connection = new Connection(stopped, idleTimeoutMs);
  const reconnect: PendingReconnect = {};
  try {
    const headers: Record<string, string> = { ...options.headers, accept: 'text/event-stream' };
    // An empty id (none yet, or one the server cleared) is not sent, as EventSource does.
    if (resume.lastEventId) headers['last-event-id'] = resume.lastEventId;
    const response = await (options.fetch ?? fetch)(url, { headers, signal: connection.signal });
    if (!isEventStream(response)) return await refusedReconnect(response);
    for await (const message of messagesOf(response.body!, connection, (retry) => (resume.retryMs = retry))) {
      if (message.event === 'unavailable') {
        const unavailable = unavailableOf(message);
        Object.assign(reconnect, { unavailable, delayMs: unavailable.retryAfter * 1000 });
        continue;
      }
      if (message.id !== undefined) resume.lastEventId = message.id;
      const event = liveEventOf(message);
      if (event) yield event;
    }
  } catch (error) {
    if (error instanceof LiveEventsError) throw error;
    if (!stopped.aborted) reconnect.error = connection.idle ? new Error(`nothing arrived for ${idleTimeoutMs} ms`) : error;
  } finally {
    connection.close();
  }
  return reconnect;
}

function isEventStream(response: Response): boolean {
  return response.status === 200 && response.body !== null && /^text\/event-stream\b/i.test(response.headers.get('content-type') ?? '');
}

/** A refused connection: retried after its Retry-After when it is a 429 or a 5xx, else the end (LiveEventsError). */
async function refusedReconnect(response: Response): Promise<PendingReconnect> {
  const text = await response.text().catch(() => '');
  if (response.status !== 429 && response.status < 500) throw new LiveEventsError(refusal(response.status, text), response.status);
  return { status: response.status, delayMs: retryAfterMs(response.headers.get('retry-after')) };
}

/** One request: aborted when the iteration stops, or when it has been idle too long. */
class Connection {
  private readonly controller = new AbortController();
  private readonly onStop = () => this.controller.abort();
  private timer: ReturnType<typeof setTimeout> | undefined;
  idle = false;

  constructor(
    private readonly stopped: AbortSignal,
    private readonly idleTimeoutMs: number,
  ) {
    stopped.addEventListener('abort', this.onStop, { once: true });
    this.alive();
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Something arrived: the idle clock starts again. */
  alive(): void {
    if (this.idleTimeoutMs <= 0) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.idle = true;
      this.controller.abort();
    }, this.idleTimeoutMs);
  }

  close(): void {
    clearTimeout(this.timer);
    this.stopped.removeEventListener('abort', this.onStop);
    this.controller.abort();
  }
}

/** The messages of one response body, as they arrive; comments only keep the connection alive. */
async function* messagesOf(body: ReadableStream<Uint8Array>, connection: Connection, onRetry: (ms: number) => void) {
  const arrived: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (message) => arrived.push(message), onRetry });
  const decoder = new TextDecoder();
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      connection.alive();
      parser.feed(decoder.decode(value, { stream: true }));
      while (arrived.length > 0) yield arrived.shift()!;
    }
  } finally {
    // Also closes the connection when the loop was left early.
    reader.cancel().catch(() => undefined);
  }
}

/** The typed event of a message; undefined for an event name this client does not know (a newer server's). */
function liveEventOf({ event, id, data }: EventSourceMessage): LiveEvent | undefined {
  if (event === undefined || !EVENT_NAMES.has(event)) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch {
    throw new LiveEventsError(`The ${event} event ${id ?? ''} carries data that is not JSON: ${data.slice(0, 200)}`);
  }
  return { event, id: id ?? '', data: parsed } as LiveEvent;
}

/** The data of an `unavailable` event, as the API document gives it. */
function unavailableOf({ data }: EventSourceMessage): StreamUnavailable {
  try {
    const { reason, retryAfter } = JSON.parse(data) as Partial<StreamUnavailable>;
    if (typeof reason === 'string' && typeof retryAfter === 'number' && retryAfter >= 0) return { reason, retryAfter };
  } catch {
    // Not JSON: the text is the reason.
  }
  throw new LiveEventsError(`The unavailable event carries data that is not a StreamUnavailable: ${data.slice(0, 200)}`);
}

/** Retry-After in ms: seconds, or an HTTP date. */
function retryAfterMs(value: string | null): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

function refusal(status: number, text: string): string {
  if (status === 200) return 'The live stream answered 200 without an event stream';
  try {
    const { message } = JSON.parse(text) as { message?: unknown };
    if (typeof message === 'string') return `The live stream answered ${status}: ${message}`;
  } catch {
    // Not the API's error body: say what came.
  }
  return `The live stream answered ${status}${text ? `: ${text.slice(0, 200)}` : ''}`;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
