import { recordEventStream, type RecordedEventStream } from '@ledger-api/http-core/testing';
import { waitFor } from '@ledger-api/test-kit';
import { startFakeArea, type FakeArea } from '../testing/fake-area';
import { send, startGateway, type RunningGateway } from '../testing/gateway-harness';
import type { ServiceName } from '../upstreams';

/**
 * A service whose live stream sends garbage: the gateway gives up that area's feed and
 * proxies the area, while the other areas keep their edge answers and their live streams.
 */
let areas: Record<ServiceName, FakeArea>;
let gateway: RunningGateway;
const streams: RecordedEventStream[] = [];

const PATHS: Record<ServiceName, string> = {
  guardian: '/api/guardian/groups',
  'nft-base': '/api/nft/assets',
  'nft-exchange': '/api/nft/exchange/trades',
};

const feedOf = (service: ServiceName) => gateway.edge?.feeds.get(service);

/** Whether the service rendered the answer (the request was proxied) rather than the edge. */
async function proxied(service: ServiceName): Promise<boolean> {
  const rendersBefore = areas[service].renders;
  const answer = await send(`${gateway.url}${PATHS[service]}`);
  expect(answer.status).toBe(200);
  return areas[service].renders > rendersBefore;
}

async function malformedFrames(): Promise<number> {
  const text = await gateway.metrics.registry.getSingleMetricAsString('edge_feed_malformed_frames_total');
  return Number(/area="nft-base"[^\n]*\} (\d+)/.exec(text)?.[1] ?? 0);
}

async function openStream(path: string): Promise<RecordedEventStream> {
  const stream = await recordEventStream(`${gateway.url}${path}`);
  streams.push(stream);
  expect(stream.status).toBe(200);
  return stream;
}

beforeEach(async () => {
  const [guardian, nftBase, nftExchange] = await Promise.all([startFakeArea('/guardian'), startFakeArea('/nft'), startFakeArea('/nft/exchange')]);
  areas = { guardian, 'nft-base': nftBase, 'nft-exchange': nftExchange };
  gateway = await startGateway(
    { GUARDIAN_URL: guardian.url, NFT_BASE_URL: nftBase.url, NFT_EXCHANGE_URL: nftExchange.url, FEED_RECONNECT_MS: '20' },
    { edge: true },
  );
  await waitFor(() => [...(gateway.edge?.feeds.values() ?? [])].every((feed) => feed.status() === 'live'), 'every feed live');
});

afterEach(async () => {
  for (const stream of streams.splice(0)) stream.close();
  await gateway.close();
  await Promise.all(Object.values(areas).map((area) => area.close()));
});

describe('a malformed frame on one area’s live stream', () => {
  const frames = {
    'data that is not JSON': 'event: block.applied\nid: fakeModel-2\ndata: {"height": 2, "id": \n\n',
    'data that fails the schema': 'event: block.applied\nid: fakeModel-2\ndata: {"height": "two", "id": "block-2"}\n\n',
  };

  it.each(Object.entries(frames))(
    '(%s) drops that feed only: the area is proxied, counted, and back at the edge once the service behaves',
    async (_, frame) => {
      for (const service of ['guardian', 'nft-base', 'nft-exchange'] as const) {
        await proxied(service);
        expect({ service, proxied: await proxied(service) }).toEqual({ service, proxied: false });
      }
      const guardianStream = await openStream('/api/guardian/events');
      const exchangeStream = await openStream('/api/nft/exchange/events');

      areas['nft-base'].corruptFeed(frame);
      await waitFor(() => feedOf('nft-base')?.status() === 'lost', 'the nft-base feed dropped');
      // Every reconnection meets the same frame while the service sends it.
      await waitFor(async () => (await malformedFrames()) >= 2, 'the malformed frames counted');
      expect(await proxied('nft-base')).toBe(true);
      expect(await proxied('nft-base')).toBe(true);
      const refused = await send(`${gateway.url}/api/nft/events`);
      expect([refused.status, refused.body]).toEqual([200, expect.stringContaining('event: unavailable')]);

      expect([feedOf('guardian')?.status(), feedOf('nft-exchange')?.status()]).toEqual(['live', 'live']);
      expect([await proxied('guardian'), await proxied('nft-exchange')]).toEqual([false, false]);
      areas.guardian.commit();
      areas['nft-exchange'].commit();
      await waitFor(() => guardianStream.events.length === 2 && exchangeStream.events.length === 2, 'the commits streamed');
      expect([guardianStream.events[1].event, exchangeStream.events[1].event]).toEqual(['block.applied', 'block.applied']);

      areas['nft-base'].restoreFeed();
      await waitFor(() => feedOf('nft-base')?.status() === 'live', 'the nft-base feed back');
      await proxied('nft-base');
      expect(await proxied('nft-base')).toBe(false);
      const nftStream = await openStream('/api/nft/events');
      areas['nft-base'].commit();
      await waitFor(() => nftStream.events.length === 2, 'an nft-base commit streamed');
    },
  );
});
