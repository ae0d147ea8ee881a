import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { liveEvents, LiveEventsError, type LiveArea, type LiveEvent, type LiveEventsOptions, type Reconnect } from './live-events';

/** What the fake server does with one connection. */
type Plan = (req: IncomingMessage, res: ServerResponse) => void;

/** A tiny SSE server: each connection follows the next plan, the last one repeats. */
class FakeStream {
  readonly requests: IncomingMessage[] = [];
  readonly open = new Set<ServerResponse>();
  private readonly server: Server;
  private readonly plans: Plan[];

  constructor(...plans: Plan[]) {
    this.plans = plans;
    this.server = createServer((req, res) => {
      this.requests.push(req);
      this.open.add(res);
      res.once('close', () => this.open.delete(res));
      (this.plans[this.requests.length - 1] ?? this.plans[this.plans.length - 1])(req, res);
    });
  }

  async start(): Promise<string> {
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  lastEventIds = () => this.requests.map((req) => req.headers['last-event-id']);

  stop(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

const frame = (event: string, id: string, data: unknown) => `event: ${event}\nid: ${id}\ndata: ${JSON.stringify(data)}\n\n`;

const block = (height: number) => ({
  height,
  id: String(height).padStart(64, '0'),
  timestamp: { epoch: height, unix: 1490101200 + height, human: new Date((1490101200 + height) * 1000).toISOString() },
  transactions: [String(height).padStart(64, 'f')],
});

/** Blocks 1..n as the stream sends them, with ids `m-1`..`m-n`. */
const HISTORY = [1, 2, 3, 4, 5].map((height) => ({ id: `m-${height}`, text: frame('block.applied', `m-${height}`, block(height)) }));

/** A stream of HISTORY: from the event after Last-Event-ID, or from a position; `take` events, then it ends, or stays open. */
function serve({ take = HISTORY.length, end = false, retry = 20 } = {}): Plan {
  return (req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8' });
    res.write(`retry: ${retry}\n\n`);
    const after = req.headers['last-event-id'];
    const from = after === undefined ? 0 : HISTORY.findIndex(({ id }) => id === after) + 1;
    if (after === undefined) res.write(frame('position', 'm-0', { height: 0, id: '' }));
    for (const { text } of HISTORY.slice(from, from + take)) res.write(text);
    if (end) res.end();
  };
}

const refuse =
  (status: number, headers: Record<string, string> = {}, message = 'try again'): Plan =>
  (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify({ statusCode: status, error: 'Error', message }));
  };

const silent: Plan = (_req, res) => {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  res.write('retry: 20\n\n');
  res.write(frame('position', 'm-0', { height: 0, id: '' }));
};

let server: FakeStream;

afterEach(() => server?.stop());

/** Reads `count` events, then stops the iteration. */
async function take(count: number, options: LiveEventsOptions = {}, area: LiveArea = 'nft'): Promise<LiveEvent[]> {
  const base = await server.start();
  const events: LiveEvent[] = [];
  for await (const event of liveEvents(base, area, options)) {
    events.push(event);
    if (events.length === count) break;
  }
  return events;
}

const heights = (events: LiveEvent[]) => events.map((event) => `${event.event} ${event.data.height}`);

describe('liveEvents', () => {
  it('takes the areas the API document streams, and no other path', () => {
    const areas: LiveArea[] = ['guardian', 'nft', 'nft/exchange'];
    // @ts-expect-error -- a list, not a live stream
    const notAnArea: LiveArea = 'nft/assets';
    expect([...areas, notAnArea]).toHaveLength(4);
  });

  it("gives the area's events typed by their name, from the area's path", async () => {
    server = new FakeStream(serve());
    const events = await take(3, {}, 'nft/exchange');
    expect(server.requests[0].url).toBe('/api/nft/exchange/events');
    expect(server.requests[0].headers.accept).toBe('text/event-stream');
    expect(events[0]).toEqual({ event: 'position', id: 'm-0', data: { height: 0, id: '' } });
    const [, applied] = events;
    if (applied.event !== 'block.applied') throw new Error(`expected block.applied, got ${applied.event}`);
    // Typed as BlockApplied: its fields need no cast.
    expect(applied.data.transactions).toEqual([block(1).transactions[0]]);
    expect(applied.data.timestamp.unix).toBe(1490101201);
  });

  it('resumes with Last-Event-ID after the server ends the stream, with no event lost or repeated', async () => {
    server = new FakeStream(serve({ take: 2, end: true }), serve({ take: 1, end: true }), serve());
    const reconnects: Reconnect[] = [];
    const events = await take(6, { onReconnect: (reconnect) => reconnects.push(reconnect) });
    expect(heights(events)).toEqual(['position 0', 'block.applied 1', 'block.applied 2', 'block.applied 3', 'block.applied 4', 'block.applied 5']);
    expect(server.lastEventIds()).toEqual([undefined, 'm-2', 'm-3']);
    // The server's retry (20 ms), not the default.
    expect(reconnects).toEqual([
      { delayMs: 20, lastEventId: 'm-2' },
      { delayMs: 20, lastEventId: 'm-3' },
    ]);
  });

  it('starts after a given lastEventId, and resumes after a failed connection', async () => {
    server = new FakeStream(serve({ take: 1 }), serve());
    const base = await server.start();
    const events: LiveEvent[] = [];
    const reconnects: Reconnect[] = [];
    for await (const event of liveEvents(base, 'guardian', { lastEventId: 'm-1', onReconnect: (reconnect) => reconnects.push(reconnect) })) {
      events.push(event);
      // The server goes away mid-stream: the connection is cut, not ended.
      if (events.length === 1) for (const res of server.open) res.destroy();
      if (events.length === 4) break;
    }
    expect(heights(events)).toEqual(['block.applied 2', 'block.applied 3', 'block.applied 4', 'block.applied 5']);
    expect(server.lastEventIds()).toEqual(['m-1', 'm-2']);
    expect(reconnects[0].error).toBeDefined();
  });

  it('waits the Retry-After of a 429 or 503 and retries other server errors after retry', async () => {
    server = new FakeStream(refuse(503, { 'retry-after': '1' }), refuse(429, { 'retry-after': '0' }), refuse(502), serve());
    const reconnects: Reconnect[] = [];
    const started = performance.now();
    const events = await take(1, { retryMs: 10, onReconnect: (reconnect) => reconnects.push(reconnect) });
    expect(performance.now() - started).toBeGreaterThanOrEqual(990);
    expect(reconnects.map(({ status, delayMs }) => [status, delayMs])).toEqual([
      [503, 1000],
      [429, 0],
      [502, 10],
    ]);
    expect(events[0].event).toBe('position');
  });

  it('waits the retryAfter of a stream that ends with unavailable, then resumes after the last event it gave', async () => {
    const unavailable =
      (retryAfter: number): Plan =>
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'retry-after': String(retryAfter) });
        res.end(
          `retry: ${retryAfter * 1000}\n\nevent: unavailable\ndata: ${JSON.stringify({ reason: 'At most 2 live streams per client', retryAfter })}\n\n`,
        );
      };
    server = new FakeStream(serve({ take: 1, end: true }), unavailable(1), serve());
    const reconnects: Reconnect[] = [];
    const events = await take(3, { onReconnect: (reconnect) => reconnects.push(reconnect) });
    expect(heights(events)).toEqual(['position 0', 'block.applied 1', 'block.applied 2']);
    expect(server.lastEventIds()).toEqual([undefined, 'm-1', 'm-1']);
    expect(reconnects.map(({ unavailable, delayMs }) => [unavailable, delayMs])).toEqual([
      [undefined, 20],
      [{ reason: 'At most 2 live streams per client', retryAfter: 1 }, 1000],
    ]);
  });

  it('throws on a refusal it cannot retry, with the status and the message', async () => {
    server = new FakeStream(refuse(422, {}, '"from" is not allowed'));
    const error = await take(1).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(LiveEventsError);
    expect(error).toMatchObject({ status: 422, message: 'The live stream answered 422: "from" is not allowed' });
    expect(server.requests).toHaveLength(1);
  });

  it('replaces a connection on which nothing arrives, not even a keep-alive', async () => {
    server = new FakeStream(silent, serve({ take: 1 }));
    const reconnects: Reconnect[] = [];
    const events = await take(2, { idleTimeoutMs: 100, onReconnect: (reconnect) => reconnects.push(reconnect) });
    expect(heights(events)).toEqual(['position 0', 'block.applied 1']);
    expect(server.lastEventIds()).toEqual([undefined, 'm-0']);
    expect(String(reconnects[0].error)).toContain('nothing arrived for 100 ms');
  });

  it('passes over events of names it does not know, still resuming after them', async () => {
    server = new FakeStream((req, res) => {
      serve({ take: 0 })(req, res);
      res.end(frame('block.renamed', 'm-1', { height: 1 }));
    }, serve());
    const events = await take(2);
    expect(heights(events)).toEqual(['position 0', 'block.applied 2']);
    expect(server.lastEventIds()).toEqual([undefined, 'm-1']);
  });

  describe('ends', () => {
    it('when the signal aborts while it waits for an event, closing the connection', async () => {
      server = new FakeStream(serve({ take: 0 }));
      const base = await server.start();
      const controller = new AbortController();
      const events: LiveEvent[] = [];
      for await (const event of liveEvents(base, 'nft', { signal: controller.signal })) {
        events.push(event);
        setTimeout(() => controller.abort(), 50);
      }
      expect(heights(events)).toEqual(['position 0']);
      await waitFor(() => server.open.size === 0);
    });

    it('when the signal aborts while it waits to reconnect', async () => {
      const retryAfterSeconds = 60;
      server = new FakeStream(refuse(503, { 'retry-after': String(retryAfterSeconds) }));
      const controller = new AbortController();
      const started = performance.now();
      const events = take(1, { signal: controller.signal, onReconnect: () => controller.abort() });
      expect(await events).toEqual([]);
      // It did not wait out the Retry-After before it ended.
      expect(performance.now() - started).toBeLessThan(retryAfterSeconds * 1000);
    }, 90_000);

    it('at once when the signal has aborted already', async () => {
      server = new FakeStream(serve());
      expect(await take(1, { signal: AbortSignal.abort() })).toEqual([]);
      expect(server.requests).toHaveLength(0);
    });

    it('when the loop is left, closing the connection', async () => {
      server = new FakeStream(serve());
      await take(1);
      await waitFor(() => server.open.size === 0);
      expect(server.requests).toHaveLength(1);
    });
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 2_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
