import { recordEventStream, type RecordedEventStream } from '@ledger-api/http-core/testing';
import { waitFor } from '@ledger-api/test-kit';
import { startFakeArea, type FakeArea } from '../testing/fake-area';
import { send, startGateway, type RunningGateway } from '../testing/gateway-harness';

let area: FakeArea;
const gateways: RunningGateway[] = [];
const streams: RecordedEventStream[] = [];

async function gatewayOver(env: Record<string, string> = {}): Promise<RunningGateway> {
  const gateway = await startGateway({ NFT_BASE_URL: area.url, FEED_RECONNECT_MS: '20', ...env }, { edge: true });
  gateways.push(gateway);
  await waitFor(() => gateway.edge?.feeds.get('nft-base')?.status() === 'live', 'the commit feed');
  return gateway;
}

async function open(gateway: RunningGateway, headers: Record<string, string> = {}) {
  const stream = await recordEventStream(`${gateway.url}/api/nft/events`, headers);
  streams.push(stream);
  return stream;
}

/** A stream that should be refused: its Retry-After, its retry fields and the data of its one event, `unavailable`, once it ended. */
async function refusedStream(gateway: RunningGateway, headers: Record<string, string> = {}) {
  const stream = await open(gateway, headers);
  await stream.ended;
  expect(stream.status).toBe(200);
  expect(stream.headers['content-type']).toBe('text/event-stream; charset=utf-8');
  expect(stream.events.map(({ event, id }) => [event, id])).toEqual([['unavailable', undefined]]);
  return { retryAfter: stream.headers['retry-after'], retries: stream.retries, data: JSON.parse(stream.events[0].data) as unknown };
}

const generations = (stream: RecordedEventStream) => stream.events.map((event) => Number(event.id?.split('-')[1]));

beforeEach(async () => {
  area = await startFakeArea('/nft');
});

afterEach(async () => {
  for (const stream of streams.splice(0)) stream.close();
  await Promise.all(gateways.splice(0).map((gateway) => gateway.close()));
  await area.close();
});

describe("the gateway's live streams", () => {
  it('open on the position and fan out each commit, once the edge has moved on to it', async () => {
    const gateway = await gatewayOver();
    const stream = await open(gateway);
    expect(stream.status).toBe(200);
    expect(stream.headers).toMatchObject({
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'access-control-allow-origin': '*',
    });
    expect(stream.headers['content-encoding']).toBeUndefined();
    await waitFor(() => stream.events.length === 1, 'the position');
    expect(stream.events[0]).toMatchObject({ event: 'position', id: `${area.readModel}-1`, data: JSON.stringify({ height: 1, id: 'block-1' }) });

    const feed = gateway.edge?.feeds.get('nft-base');
    const edgeAtDelivery: (number | undefined)[] = [];
    const unsubscribe = feed?.subscribe(() => edgeAtDelivery.push(feed.edgeCommit()?.generation));
    area.commit();
    area.commit('block.reverted');
    await waitFor(() => stream.events.length === 3, 'two commits');
    unsubscribe?.();
    expect(stream.events.map((event) => event.event)).toEqual(['position', 'block.applied', 'block.reverted']);
    expect(edgeAtDelivery).toEqual([2, 3]);
  });

  it('resume from a Last-Event-ID with every later event, from the gateway’s events or, after a restart, from the service', async () => {
    const first = await gatewayOver({ EVENTS_BUFFER: '2' });
    const stream = await open(first);
    for (let count = 0; count < 4; count += 1) area.commit();
    await waitFor(() => stream.events.length === 5, 'four commits');
    expect(generations(stream)).toEqual([1, 2, 3, 4, 5]);

    const fromBuffer = await open(first, { 'last-event-id': `${area.readModel}-3` });
    await waitFor(() => fromBuffer.events.length === 2, 'the two kept events');
    expect(generations(fromBuffer)).toEqual([4, 5]);

    const fromService = await open(first, { 'last-event-id': `${area.readModel}-1` });
    await waitFor(() => fromService.events.length === 4, 'the replay from the service');
    expect(generations(fromService)).toEqual([2, 3, 4, 5]);

    await first.close();
    const restarted = await gatewayOver();
    const resumed = await open(restarted, { 'last-event-id': stream.events[2].id ?? '' });
    await waitFor(() => resumed.events.length === 2, 'the events after the id');
    area.commit();
    await waitFor(() => resumed.events.length === 3, 'a live event after the replay');
    expect(generations(resumed)).toEqual([4, 5, 6]);

    const reset = await open(restarted, { 'last-event-id': 'another-model-3' });
    await waitFor(() => reset.events.length === 1, 'the reset');
    expect(reset.events[0]).toMatchObject({ event: 'reset', id: `${area.readModel}-6` });
  });

  it('take lastEventId from clients that cannot set headers, the header winning when both are sent', async () => {
    const gateway = await gatewayOver();
    for (let count = 0; count < 3; count += 1) area.commit();
    const fromQuery = await recordEventStream(`${gateway.url}/api/nft/events?lastEventId=${area.readModel}-2`);
    streams.push(fromQuery);
    await waitFor(() => fromQuery.events.length === 2, 'the events after the id of the query');
    expect(generations(fromQuery)).toEqual([3, 4]);

    const both = await recordEventStream(`${gateway.url}/api/nft/events?lastEventId=${area.readModel}-1`, {
      'last-event-id': `${area.readModel}-3`,
    });
    streams.push(both);
    await waitFor(() => both.events.length === 1, 'the events after the id of the header');
    expect(generations(both)).toEqual([4]);
  });

  it('refuse query keys and other methods with a 4xx', async () => {
    const gateway = await gatewayOver();
    const withKey = await send(`${gateway.url}/api/nft/events?lastEventId=x&since=1`);
    expect(withKey.status).toBe(422);
    expect(JSON.parse(withKey.body)).toMatchObject({ message: '"since" is not allowed' });
    expect(
      (await send(`${gateway.url}/api/nft/events`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } })).status,
    ).toBe(404);
    expect((await send(`${gateway.url}/api/nft/events`, { method: 'DELETE' })).status).toBe(404);
  });

  it('refuse streams past the caps per client and per process with a 200 stream that ends with unavailable', async () => {
    const gateway = await gatewayOver({ EVENTS_MAX_PER_CLIENT: '2', EVENTS_MAX_STREAMS: '3', TRUST_PROXY: 'true' });
    const from = (client: string) => ({ 'x-forwarded-for': client });
    await open(gateway, from('10.0.0.1'));
    await open(gateway, from('10.0.0.1'));
    const third = await refusedStream(gateway, from('10.0.0.1'));
    expect(third).toEqual({ retryAfter: '10', retries: [10_000], data: { reason: 'At most 2 live streams per client', retryAfter: 10 } });
    expect((await open(gateway, from('10.0.0.2'))).status).toBe(200);
    const full = await refusedStream(gateway, from('10.0.0.3'));
    expect(full).toEqual({ retryAfter: '5', retries: [5_000], data: { reason: expect.stringContaining('Too many live streams'), retryAfter: 5 } });

    streams[0].close();
    const firstEventOf = async (stream: RecordedEventStream) => {
      await waitFor(() => stream.events.length > 0, 'the first event');
      return stream.events[0].event;
    };
    await waitFor(async () => (await firstEventOf(await open(gateway, from('10.0.0.1')))) === 'position', 'a place freed by a closed stream');
  });

  it('refuse streams while the feed of the area is not live, with a 200 stream that ends with unavailable', async () => {
    const gateway = await gatewayOver();
    area.dropFeed();
    await waitFor(() => gateway.edge?.feeds.get('nft-base')?.status() !== 'live', 'the feed lost');
    const refused = await refusedStream(gateway);
    expect(refused).toEqual({
      retryAfter: '2',
      retries: [2_000],
      data: { reason: expect.stringContaining('no live feed of nft-base'), retryAfter: 2 },
    });
    area.restoreFeed();
    await waitFor(() => gateway.edge?.feeds.get('nft-base')?.status() === 'live', 'the feed back');
    expect((await open(gateway)).status).toBe(200);
  });

  it('stay open while idle past every request and keep-alive timeout, carrying keep-alive comments', async () => {
    const gateway = await gatewayOver({ REQUEST_TIMEOUT_MS: '100', KEEP_ALIVE_TIMEOUT_MS: '100', EVENTS_KEEP_ALIVE_MS: '300' });
    const stream = await open(gateway);
    await waitFor(() => stream.comments.length >= 3, 'three keep-alive comments', 5_000);
    area.commit();
    await waitFor(() => stream.events.length === 2, 'an event after the idle time');
    expect(stream.events[1].event).toBe('block.applied');
  });

  it('end at shutdown with a short retry, and refuse the streams asked for after', async () => {
    const gateway = await gatewayOver();
    const stream = await open(gateway);
    await waitFor(() => stream.events.length === 1, 'the position');
    gateway.edge?.stop();
    await stream.ended;
    expect(stream.retries).toHaveLength(2);
    expect(stream.retries[0]).toBe(2_000);
    expect(stream.retries[1]).toBeGreaterThanOrEqual(250);
    expect(stream.retries[1]).toBeLessThan(1_250);
    const refused = await refusedStream(gateway);
    expect(refused).toEqual({ retryAfter: '1', retries: [1_000], data: { reason: expect.stringContaining('Shutting down'), retryAfter: 1 } });
  });
});
