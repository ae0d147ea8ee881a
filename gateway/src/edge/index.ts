import type { Request } from 'express';
import type { Logger, Metrics } from '@ledger-api/observability';
import type { GatewayConfig } from '../config';
import { AREAS, upstreamOf, type ServiceName } from '../upstreams';
import { AreaFeed, type FeedState } from './area-feed';
import { EdgeCache } from './edge-cache';
import { PublicLiveStreams } from './public-streams';

export { edgeAnswers, keepForEdge, keptAnswers } from './edge-answers';
export { answerHitsFirst, type EdgeFrontOptions } from './edge-front';
export type { AreaFeed, FeedState } from './area-feed';
export type { EdgeCache } from './edge-cache';

/** An answer larger than this is never kept: it would push out many small ones. */
const MAX_ENTRY_SHARE = 8;

const FEED_STATE_VALUE: Record<FeedState, number> = { lost: 0, connecting: 1, live: 2 };

/** What answers at the edge: each area's commit feed, the cache of answers, and the public live streams fed from them. */
export interface GatewayEdge {
  feeds: ReadonlyMap<ServiceName, AreaFeed>;
  /** Undefined when EDGE_CACHE_MB is 0: every request is proxied. */
  cache: EdgeCache | undefined;
  maxEntryBytes: number;
  streams: PublicLiveStreams;
  requests: ReturnType<Metrics['counter']>;
  waits: ReturnType<Metrics['counter']>;
  start(): void;
  /** Ends the live streams and the feeds; the server closes after. */
  stop(): void;
}

export interface GatewayEdgeDependencies {
  logger: Logger;
  metrics: Metrics;
  clientAddress(req: Request): string | undefined;
}

export function createGatewayEdge(config: GatewayConfig, { logger, metrics, clientAddress }: GatewayEdgeDependencies): GatewayEdge {
  const feedState = metrics.gauge('edge_feed_state', "Each area's commit feed: 2 live, 1 connecting, 0 lost (the area is proxied)", ['area']);
  const catchUp = metrics.histogram(
    'edge_feed_catch_up_seconds',
    'How long a commit feed trailed a service that answered from a newer commit (the area was proxied meanwhile)',
    ['area'],
    [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5],
  );
  const malformedFrames = metrics.counter(
    'edge_feed_malformed_frames_total',
    "Frames of a service's live stream that were not JSON or not of the stream's schema: each drops that area's commit feed, which is proxied until it reconnects",
    ['area'],
  );
  const feeds = new Map<ServiceName, AreaFeed>();
  for (const area of AREAS) {
    const upstream = upstreamOf(area, config);
    if (!upstream) continue;
    feedState.set({ area: area.service }, FEED_STATE_VALUE.connecting);
    const feed = new AreaFeed({
      area: area.service,
      urls: upstream.baseUrls.map((baseUrl) => `${baseUrl}${area.servicePath}/events`),
      bufferedEvents: config.EVENTS_BUFFER,
      reconnectMs: config.FEED_RECONNECT_MS,
      logger,
      onState: (state) => feedState.set({ area: area.service }, FEED_STATE_VALUE[state]),
      onCaughtUp: (seconds) => catchUp.observe({ area: area.service }, seconds),
      onMalformedFrame: () => malformedFrames.inc({ area: area.service }),
    });
    feeds.set(area.service, feed);
  }
  const maxBytes = config.EDGE_CACHE_MB * 1024 * 1024;
  const cache = maxBytes > 0 ? new EdgeCache(maxBytes) : undefined;
  metrics.gauge('edge_cache_bytes', 'Bytes the edge cache holds, counted against EDGE_CACHE_MB', [], (gauge) => gauge.set(cache?.bytes ?? 0));
  const streams = new PublicLiveStreams({
    maxPerClient: config.EVENTS_MAX_PER_CLIENT,
    maxStreams: config.EVENTS_MAX_STREAMS,
    keepAliveMs: config.EVENTS_KEEP_ALIVE_MS,
    clientAddress,
  });
  metrics.gauge('live_streams_open', 'Live streams the gateway serves now', [], (gauge) => gauge.set(streams.size));
  const requests = metrics.counter(
    'edge_cache_requests_total',
    'Area requests by what the edge did: hit, miss (proxied), bypass (proxied: the feed cannot vouch)',
    ['area', 'result'],
  );
  const waits = metrics.counter(
    'edge_cache_waits_total',
    'Area requests that waited for the same request, in flight to the service, instead of being proxied too',
    ['area'],
  );
  return {
    feeds,
    cache,
    maxEntryBytes: Math.floor(maxBytes / MAX_ENTRY_SHARE),
    streams,
    requests,
    waits,
    start: () => feeds.forEach((feed) => feed.start()),
    stop() {
      streams.endAll();
      feeds.forEach((feed) => feed.stop());
    },
  };
}
