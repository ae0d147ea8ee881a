import { Agent } from 'node:http';
import type { GatewayConfig } from './config';

export type ServiceName = 'guardian' | 'nft-base' | 'nft-exchange';

export interface Area {
  service: ServiceName;
  /** Public mount point at the gateway. */
  mountPath: string;
  /** The same path as the service serves it: the mount point without `/api`. */
  servicePath: string;
  urlSetting: 'GUARDIAN_URL' | 'NFT_BASE_URL' | 'NFT_EXCHANGE_URL';
}

/** Ordered so that `/api/nft/exchange` is matched before the shorter `/api/nft`. */
export const AREAS: readonly Area[] = [
  { service: 'guardian', mountPath: '/api/guardian', servicePath: '/guardian', urlSetting: 'GUARDIAN_URL' },
  { service: 'nft-exchange', mountPath: '/api/nft/exchange', servicePath: '/nft/exchange', urlSetting: 'NFT_EXCHANGE_URL' },
  { service: 'nft-base', mountPath: '/api/nft', servicePath: '/nft', urlSetting: 'NFT_BASE_URL' },
];

export interface Upstream {
  service: ServiceName;
  /** Base URL of the service, without a trailing slash. */
  baseUrl: string;
}

export function upstreamOf(area: Area, config: GatewayConfig): Upstream | undefined {
  const url = config[area.urlSetting];
  return url === undefined ? undefined : { service: area.service, baseUrl: url.replace(/\/+$/, '') };
}

/** The services that have a URL configured, in routing order. */
export function configuredUpstreams(config: GatewayConfig): Upstream[] {
  return AREAS.flatMap((area) => upstreamOf(area, config) ?? []);
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
