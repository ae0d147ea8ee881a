import type { Agent } from 'node:http';
import { AREAS as LISTED_AREAS, type Area as ListedArea, type AreaName } from '@ledger-api/config';
import type { GatewayConfig } from './config';
import { probe } from './probe';
import { RecyclingAgent } from './upstream-agent';
import { UpstreamPool } from './upstream-pool';

export type ServiceName = AreaName;

export interface RoutedArea {
  service: ServiceName;
  /** Public mount point at the gateway. */
  mountPath: string;
  /** The same path as the service serves it: the mount point without `/api`. */
  servicePath: string;
  urlSetting: ListedArea['urlVariable'];
  /** Where the area's probes are (its replicas' ADMIN_PORT). */
  adminUrlSetting: ListedArea['adminUrlVariable'];
}

/** The listed areas in routing order: each before any whose mount point its own starts with (`/api/nft/exchange` before `/api/nft`). */
function routingOrder(areas: readonly ListedArea[]): ListedArea[] {
  const ordered: ListedArea[] = [];
  for (const area of areas) {
    const within = ordered.findIndex((placed) => area.basePath.startsWith(`${placed.basePath}/`));
    ordered.splice(within === -1 ? ordered.length : within, 0, area);
  }
  return ordered;
}

export const ROUTED_AREAS: readonly RoutedArea[] = routingOrder(LISTED_AREAS).map((area) => ({
  service: area.name,
  mountPath: `/api${area.basePath}`,
  servicePath: area.basePath,
  urlSetting: area.urlVariable,
  adminUrlSetting: area.adminUrlVariable,
}));

/** Whether a request path is at or below the area's mount point, as Express's router matches mount points. */
export function isUnderMount(path: string, { mountPath }: Pick<RoutedArea, 'mountPath'>): boolean {
  return path.startsWith(mountPath) && (path.length === mountPath.length || path[mountPath.length] === '/');
}

export interface Upstream {
  service: ServiceName;
  /** Base URLs of the area's replicas, without a trailing slash. */
  baseUrls: string[];
  /** Base URLs of their admin ports, without a trailing slash; none when not configured. */
  adminUrls: string[];
}

const withoutTrailingSlash = (urls: string[] | undefined) => (urls ?? []).map((url) => url.replace(/\/+$/, ''));

export function upstreamOf(area: RoutedArea, config: GatewayConfig): Upstream | undefined {
  const urls = config[area.urlSetting];
  if (urls === undefined) return undefined;
  return { service: area.service, baseUrls: withoutTrailingSlash(urls), adminUrls: withoutTrailingSlash(config[area.adminUrlSetting]) };
}

/** The services that have a URL configured, in routing order. */
export function configuredUpstreams(config: GatewayConfig): Upstream[] {
  return ROUTED_AREAS.flatMap((area) => upstreamOf(area, config) ?? []);
}

/**
 * Whether a replica serves its area: its configuration, a small page every area serves behind
 * the same gate as every API route (503 while the replica still replays its ledger).
 */
async function serves(baseUrl: string, area: RoutedArea, timeoutMs: number): Promise<boolean> {
  return (await probe(`${baseUrl}${area.servicePath}/configurations`, timeoutMs)) === 'ready';
}

/** The area's replicas, each set aside while it cannot answer (see UpstreamPool). */
export function upstreamPoolOf(
  area: RoutedArea,
  upstream: Upstream,
  config: Pick<GatewayConfig, 'UPSTREAM_RECHECK_MS' | 'READY_TIMEOUT_MS'>,
): UpstreamPool {
  return new UpstreamPool(upstream.baseUrls, {
    probe: (baseUrl) => serves(baseUrl, area, config.READY_TIMEOUT_MS),
    recheckMs: config.UPSTREAM_RECHECK_MS,
  });
}

/**
 * The keep-alive pool towards the services: up to UPSTREAM_MAX_SOCKETS connections to
 * each, all kept open between requests (a burst's connections are reused, not reopened),
 * the most recently used first so the rest fall idle and close after UPSTREAM_IDLE_TIMEOUT_MS.
 * Each connection is retired after UPSTREAM_SOCKET_MAX_AGE_MS or UPSTREAM_SOCKET_MAX_REQUESTS,
 * so that behind an address that balances connections, replicas added later get requests too.
 */
export function createUpstreamAgent(
  config: Pick<GatewayConfig, 'UPSTREAM_MAX_SOCKETS' | 'UPSTREAM_IDLE_TIMEOUT_MS' | 'UPSTREAM_SOCKET_MAX_AGE_MS' | 'UPSTREAM_SOCKET_MAX_REQUESTS'>,
): Agent {
  return new RecyclingAgent(
    {
      keepAlive: true,
      maxSockets: config.UPSTREAM_MAX_SOCKETS,
      maxFreeSockets: config.UPSTREAM_MAX_SOCKETS,
      scheduling: 'lifo',
    },
    { idleMs: config.UPSTREAM_IDLE_TIMEOUT_MS, maxAgeMs: config.UPSTREAM_SOCKET_MAX_AGE_MS, maxRequests: config.UPSTREAM_SOCKET_MAX_REQUESTS },
  );
}
