import { loadConfig } from '@ledger-api/config';
import { liveEventSchema } from '@ledger-api/http-core';
import { recordEventStream, type RecordedEventStream } from '@ledger-api/http-core/testing';
import { applied, countedBy, PushedLedgerSource, reverted, TestLedger, testPublicKey } from '@ledger-api/ledger/testing';
import { silentLogger } from '@ledger-api/observability';
import { waitFor } from '@ledger-api/test-kit';
import { serviceConfigSchema } from './config';
import { startService, type RunningService } from './service';
import { senderCountArea } from './testing/sender-count-area';

const ALICE = testPublicKey('alice');
const area = senderCountArea('live');

const configOf = (env: Record<string, string> = {}) => ({
  ...loadConfig(serviceConfigSchema({ area: area.area, port: 0, adminPort: 0 }), { HOST: '127.0.0.1', ...env }),
  PORT: 0,
  ADMIN_PORT: 0,
});

describe('the live stream of a service', () => {
  let service: RunningService;
  let source: PushedLedgerSource;
  let base: string;
  const streams: RecordedEventStream[] = [];

  const open = async (headers: Record<string, string> = {}, path = '/live/events') => {
    const stream = await recordEventStream(`${base}${path}`, headers);
    streams.push(stream);
    return stream;
  };
  const names = (stream: RecordedEventStream) => stream.events.map((event) => event.event);

  beforeEach(async () => {
    source = new PushedLedgerSource();
    service = await startService(area, configOf({ EVENTS_KEEP_ALIVE_MS: '100' }), silentLogger(), { source });
    base = `http://127.0.0.1:${service.port}`;
    await waitFor(async () => (await fetch(`http://127.0.0.1:${service.adminPort}/readyz`)).status === 200, 'readiness');
  });

  afterEach(async () => {
    for (const stream of streams.splice(0)) stream.close();
    await service.close();
  });

  it('opens on the current position, then sends each commit in order, after it is stored', async () => {
    const stream = await open();
    expect(stream.status).toBe(200);
    expect(stream.headers).toMatchObject({ 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store' });
    await waitFor(() => stream.events.length === 1, 'the position');
    expect(stream.events[0]).toMatchObject({ event: 'position', data: JSON.stringify({ height: 0, id: '' }) });

    const ledger = new TestLedger();
    const first = ledger.block([countedBy(ledger, ALICE)]);
    const second = ledger.block([]);
    source.push(applied(first), applied(second), reverted(second));
    await waitFor(() => stream.events.length === 4, 'three commits');
    expect(names(stream)).toEqual(['position', 'block.applied', 'block.applied', 'block.reverted']);
    expect(JSON.parse(stream.events[1].data)).toEqual({
      height: 1,
      id: first.id,
      timestamp: first.timestamp,
      transactions: [first.transactions[0].id],
    });
    expect(JSON.parse(stream.events[2].data)).toEqual({ height: 2, id: second.id, timestamp: second.timestamp, transactions: [] });
    expect(JSON.parse(stream.events[3].data)).toEqual({ height: 2, id: second.id });
    const ids = stream.events.map((event) => event.id);
    expect(new Set(ids).size).toBe(4);
    // What the OpenAPI document says of each event, generated from the same schema.
    for (const { event, id, data } of stream.events) expect(liveEventSchema.parse({ event, id, data: JSON.parse(data) })).toBeDefined();
    expect(service.projector?.status().position.height).toBe(1);
  });

  it('resumes after a Last-Event-ID with every later event and nothing else, and resets on an id it cannot resume from', async () => {
    const ledger = new TestLedger();
    const blocks = [ledger.block([]), ledger.block([]), ledger.block([])];
    const first = await open();
    source.push(...blocks.map(applied));
    await waitFor(() => first.events.length === 4, 'three blocks');

    const resumed = await open({ 'last-event-id': first.events[1].id ?? '' });
    await waitFor(() => resumed.events.length === 2, 'the two later blocks');
    expect(resumed.events).toEqual(first.events.slice(2));
    // For clients that cannot set headers; the header wins when both are sent.
    const viaQuery = await open({}, `/live/events?lastEventId=${first.events[1].id}`);
    const both = await open({ 'last-event-id': first.events[2].id ?? '' }, `/live/events?lastEventId=${first.events[1].id}`);
    await waitFor(() => viaQuery.events.length === 2 && both.events.length === 1, 'the blocks after each id');
    expect(viaQuery.events).toEqual(first.events.slice(2));
    expect(both.events).toEqual(first.events.slice(3));

    const later = ledger.block([]);
    source.push(applied(later));
    await waitFor(() => resumed.events.length === 3, 'a live block after the replay');
    expect(JSON.parse(resumed.events[2].data)).toMatchObject({ height: 4, id: later.id });

    for (const lastEventId of ['nonsense', 'otherModel-2', `${first.events[0].id?.split('-')[0]}-999`]) {
      const reset = await open({ 'last-event-id': lastEventId });
      await waitFor(() => reset.events.length === 1, `the reset for ${lastEventId}`);
      expect(reset.events[0]).toMatchObject({ event: 'reset', data: JSON.stringify({ height: 4, id: later.id }) });
    }
  });

  it('resumes commits made while no stream was open, which the feed passed by without reading the log', async () => {
    const ledger = new TestLedger();
    const [first, second, third] = [ledger.block([]), ledger.block([]), ledger.block([])];
    const earlier = await open();
    source.push(applied(first));
    await waitFor(() => earlier.events.length === 2, 'the first block');
    earlier.close();
    streams.splice(streams.indexOf(earlier), 1);

    source.push(applied(second), applied(third));
    await waitFor(() => service.projector?.status().position.height === 3, 'two blocks with no stream open');
    const resumed = await open({ 'last-event-id': earlier.events[1].id ?? '' });
    await waitFor(() => resumed.events.length === 2, 'the two blocks committed meanwhile');
    expect(resumed.events.map(({ event, data }) => [event, JSON.parse(data).height])).toEqual([
      ['block.applied', 2],
      ['block.applied', 3],
    ]);
    source.push(applied(ledger.block([])));
    await waitFor(() => resumed.events.length === 3, 'a live block after them');
    expect(JSON.parse(resumed.events[2].data)).toMatchObject({ height: 4 });
  });

  it('keeps its streams open through the shutdown delay, then ends each with a short retry and refuses new ones', async () => {
    await service.close();
    service = await startService(area, configOf({ SHUTDOWN_DELAY_MS: '500' }), silentLogger(), { source: new PushedLedgerSource() });
    base = `http://127.0.0.1:${service.port}`;
    const stream = await open();
    await waitFor(() => stream.events.length === 1, 'the position');

    const closing = service.close();
    const closedAt = performance.now();
    const duringDelay = await open();
    await waitFor(() => duringDelay.events.length === 1, 'a stream served during the delay');
    expect(duringDelay.events[0].event).toBe('position');
    await stream.ended;
    expect(performance.now() - closedAt).toBeGreaterThanOrEqual(450);
    const [first, last] = stream.retries;
    expect(first).toBe(2_000);
    expect(last).toBeGreaterThanOrEqual(250);
    expect(last).toBeLessThan(1_250);
    await closing;
    service = await startService(area, configOf(), silentLogger(), { source: new PushedLedgerSource() });
  });

  it('keeps an idle stream alive with comments, takes no query key and no other method, and ends streams at shutdown', async () => {
    const stream = await open();
    await waitFor(() => stream.comments.length >= 2, 'two keep-alive comments');
    expect(stream.comments[0].trim()).toBe('keep-alive');

    const withQuery = await fetch(`${base}/live/events?lastEventId=x&from=1`);
    expect(withQuery.status).toBe(422);
    expect(await withQuery.json()).toMatchObject({ message: '"from" is not allowed' });
    expect((await fetch(`${base}/live/events`, { method: 'POST' })).status).toBe(404);
    const { paths } = (await (await fetch(`${base}/openapi.json`)).json()) as { paths: Record<string, { get: { tags: string[] } }> };
    expect(paths['/live/events'].get.tags).toEqual([area.eventsTag]);
    const head = await fetch(`${base}/live/events`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');

    await service.close();
    await stream.ended;
    service = await startService(area, configOf(), silentLogger(), { source: new PushedLedgerSource() });
  });
});
