import { Agent } from 'node:http';
import type { GatewayConfig } from './config';
import { UpstreamPool } from './upstream-pool';

export type ServiceName = 'guardian' | 'nft-base' | 'nft-exchange';

export interface Area {
  service: ServiceName;
  /** Public mount point at the gateway. */
  mountPath: string;
  /** The same path as the service serves it: the mount point without `/api`. */
  servicePath: string;
  urlSetting: 'GUARDIAN_URL' | 'NFT_BASE_URL' | 'NFT_EXCHANGE_URL';
  /** Where the area's probes are (its replicas' ADMIN_PORT). */
  adminUrlSetting: 'GUARDIAN_ADMIN_URL' | 'NFT_BASE_ADMIN_URL' | 'NFT_EXCHANGE_ADMIN_URL';
}

/** Ordered so that `/api/nft/exchange` is matched before the shorter `/api/nft`. */
export const AREAS: readonly Area[] = [
  { service: 'guardian', mountPath: '/api/guardian', servicePath: '/guardian', urlSetting: 'GUARDIAN_URL', adminUrlSetting: 'GUARDIAN_ADMIN_URL' },
  {
    service: 'nft-exchange',
    mountPath: '/api/nft/exchange',
    servicePath: '/nft/exchange',
    urlSetting: 'NFT_EXCHANGE_URL',
    adminUrlSetting: 'NFT_EXCHANGE_ADMIN_URL',
  },
  { service: 'nft-base', mountPath: '/api/nft', servicePath: '/nft', urlSetting: 'NFT_BASE_URL', adminUrlSetting: 'NFT_BASE_ADMIN_URL' },
];

export interface Upstream {
  service: ServiceName;
  /** Base URLs of the area's replicas, without a trailing slash. */
  baseUrls: string[];
  /** Base URLs of their admin ports, without a trailing slash; none when not configured. */
  adminUrls: string[];
}

const withoutTrailingSlash = (urls: string[] | undefined) => (urls ?? []).map((url) => url.replace(/\/+$/, ''));

export function upstreamOf(area: Area, config: GatewayConfig): Upstream | undefined {
  const urls = config[area.urlSetting];
  if (urls === undefined) return undefined;
  return { service: area.service, baseUrls: withoutTrailingSlash(urls), adminUrls: withoutTrailingSlash(config[area.adminUrlSetting]) };
}

/** The services that have a URL configured, in routing order. */
export function configuredUpstreams(config: GatewayConfig): Upstream[] {
  return AREAS.flatMap((area) => upstreamOf(area, config) ?? []);
}

/**
 * Whether a replica serves its area: its configuration, a small page every area serves behind
 * the same gate as every API route (503 while the replica still replays its ledger).
 */
async function serves(baseUrl: string, area: Area, timeoutMs: number): Promise<boolean> {
  try {
    const response = await fetch(`${baseUrl}${area.servicePath}/configurations`, { signal: AbortSignal.timeout(timeoutMs) });
    await response.body?.cancel();
    return response.status === 200;
  } catch {
    return false;
  }
}

/** The area's replicas, each set aside while it cannot answer (see UpstreamPool). */
export function upstreamPoolOf(
  area: Area,
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
 */
export function createUpstreamAgent(config: Pick<GatewayConfig, 'UPSTREAM_MAX_SOCKETS' | 'UPSTREAM_IDLE_TIMEOUT_MS'>): Agent {
  return new Agent({
    keepAlive: true,
    maxSockets: config.UPSTREAM_MAX_SOCKETS,
    maxFreeSockets: config.UPSTREAM_MAX_SOCKETS,
    scheduling: 'lifo',
    // A socket's timeout closes it only while it is idle in the pool.
    timeout: config.UPSTREAM_IDLE_TIMEOUT_MS,
  });
}
