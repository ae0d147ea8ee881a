import type { IncomingMessage } from 'node:http';
import type { Request, RequestHandler } from 'express';
import type { Logger, Metrics } from '@ledger-api/observability';
import type { GatewayConfig } from '../config';
import { ROUTED_AREAS, upstreamOf, type RoutedArea, type ServiceName } from '../upstreams';
import { AreaFeed, type AreaFeedStatus } from './area-feed';
import { edgeAnswers, keepForEdge, keptAnswers, type EdgeRequest } from './edge-answers';
import { EdgeCache, type EdgeEntry } from './edge-cache';
import { PublicLiveStreams } from './public-streams';

export { edgeHits, type EdgeHitArea } from './edge-front';
export type { AreaFeed, AreaFeedStatus } from './area-feed';
export type { EdgeCache } from './edge-cache';

/** An answer larger than this is never kept: it would push out many small ones. */
const MAX_ENTRY_SHARE = 8;

const FEED_STATUS_VALUE: Record<AreaFeedStatus, number> = { lost: 0, connecting: 1, live: 2 };

/** An area's answers from the edge cache, in the three places of the pipeline they take. */
export interface AreaEdgeCache {
  /** Before Express: the answer kept for a request, counted as a hit; none when there is none to give. */
  find(request: EdgeRequest): EdgeEntry | undefined;
  /** Before the proxy: answers hits, has concurrent misses of one page wait for the first, marks misses to be kept. */
  answers: RequestHandler;
  /** Sees each proxied answer's head: keeps the answers marked to be. */
  onAnswer(proxyRes: IncomingMessage, req: IncomingMessage): void;
}

/** What the edge does for an area whose area feed it follows: the handlers the app mounts for it. */
export interface AreaEdge {
  /** The area's public live stream. */
  events: RequestHandler;
  /** Undefined when EDGE_CACHE_MB is 0: every request of the area is proxied. */
  cached: AreaEdgeCache | undefined;
}

/** What answers at the edge: each area's area feed, the cache of answers, and the public live streams fed from them. */
export interface GatewayEdge {
  feeds: ReadonlyMap<ServiceName, AreaFeed>;
  /** Undefined when EDGE_CACHE_MB is 0: every request is proxied. */
  cache: EdgeCache | undefined;
  /** The edge's handlers for an area; undefined for an area whose service has no URL configured. */
  forArea(area: RoutedArea): AreaEdge | undefined;
  start(): void;
  /** Ends the live streams and the feeds; the server closes after. */
  stop(): void;
}

export interface GatewayEdgeDependencies {
  logger: Logger;
  metrics: Metrics;
  clientAddress(req: Request): string | undefined;
}

/** Each configured area's area feed, its state and faults in metrics. */
function areaFeeds(config: GatewayConfig, logger: Logger, metrics: Metrics): Map<ServiceName, AreaFeed> {
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
  for (const area of ROUTED_AREAS) {
    const upstream = upstreamOf(area, config);
    if (!upstream) continue;
    feedState.set({ area: area.service }, FEED_STATUS_VALUE.connecting);
    const feed = new AreaFeed({
      area: area.service,
      urls: upstream.baseUrls.map((baseUrl) => `${baseUrl}${area.servicePath}/events`),
      bufferedEvents: config.EVENTS_BUFFER,
      reconnectMs: config.FEED_RECONNECT_MS,
      logger,
      onState: (state) => feedState.set({ area: area.service }, FEED_STATUS_VALUE[state]),
      onCaughtUp: (seconds) => catchUp.observe({ area: area.service }, seconds),
      onMalformedFrame: () => malformedFrames.inc({ area: area.service }),
    });
    feeds.set(area.service, feed);
  }
  return feeds;
}

/** The edge cache's handlers for each area, built on one cache and one set of counters. */
function areaCaches(
  config: GatewayConfig,
  metrics: Metrics,
): { cache: EdgeCache | undefined; forArea(area: RoutedArea, feed: AreaFeed): AreaEdgeCache | undefined } {
  const maxBytes = config.EDGE_CACHE_MB * 1024 * 1024;
  const cache = maxBytes > 0 ? new EdgeCache(maxBytes) : undefined;
  metrics.gauge('edge_cache_bytes', 'Bytes the edge cache holds, counted against EDGE_CACHE_MB', [], (gauge) => gauge.set(cache?.bytes ?? 0));
  const requests = metrics.counter(
    'edge_cache_requests_total',
    'RoutedArea requests by what the edge did: hit, miss (proxied), bypass (proxied: the feed cannot vouch)',
    ['area', 'result'],
  );
  const waits = metrics.counter(
    'edge_cache_waits_total',
    'RoutedArea requests that waited for the same request, in flight to the service, instead of being proxied too',
    ['area'],
  );
  const maxEntryBytes = Math.floor(maxBytes / MAX_ENTRY_SHARE);
  const forArea = (area: RoutedArea, feed: AreaFeed): AreaEdgeCache | undefined => {
    if (!cache) return undefined;
    const options = { area, feed, cache, requests, waits };
    return { find: keptAnswers(options), answers: edgeAnswers(options), onAnswer: keepForEdge(feed, cache, maxEntryBytes) };
  };
  return { cache, forArea };
}

export function createGatewayEdge(config: GatewayConfig, { logger, metrics, clientAddress }: GatewayEdgeDependencies): GatewayEdge {
  const feeds = areaFeeds(config, logger, metrics);
  const caches = areaCaches(config, metrics);
  const streams = new PublicLiveStreams({
    maxPerClient: config.EVENTS_MAX_PER_CLIENT,
    maxStreams: config.EVENTS_MAX_STREAMS,
    keepAliveMs: config.EVENTS_KEEP_ALIVE_MS,
    clientAddress,
  });
  metrics.gauge('live_streams_open', 'Live streams the gateway serves now', [], (gauge) => gauge.set(streams.size));
  return {
    feeds,
    cache: caches.cache,
    forArea(area) {
      const feed = feeds.get(area.service);
      return feed && { events: streams.route(area.service, feed), cached: caches.forArea(area, feed) };
    },
    start: () => feeds.forEach((feed) => feed.start()),
    stop() {
      streams.endAll();
      feeds.forEach((feed) => feed.stop());
    },
  };
}
