import type { RequestHandler } from 'express';
import type { Readiness } from '@ledger-api/http-core';
import type { AreaFeedStatus } from './edge';
import { probe, type ProbeResult } from './probe';
import { ROUTED_AREAS, type ServiceName, type Upstream } from './upstreams';

type ServiceState = ProbeResult | 'not configured' | 'no admin url';

/** An area is ready while any of its replicas is, on its admin port: the others may be restarting one by one. */
async function probeArea(upstream: Upstream, timeoutMs: number): Promise<ServiceState> {
  if (upstream.adminUrls.length === 0) return 'no admin url';
  const states = await Promise.all(upstream.adminUrls.map((adminUrl) => probe(`${adminUrl}/readyz`, timeoutMs)));
  return states.includes('ready') ? 'ready' : states[0];
}

/** An area's commit feed, as readiness sees it. */
export type AreaFeedStatuses = ReadonlyMap<ServiceName, { status(): AreaFeedStatus }>;

/**
 * The gateway's /readyz, on its admin port: ready only when at least one service is
 * configured, every configured one says it is ready, and the commit feed of every one is
 * live (docs/behaviour.md section 9): before, its live streams would refuse clients. The
 * services are asked in parallel so the answer takes one timeout at most.
 */
export function gatewayReadiness(upstreams: Upstream[], feeds: AreaFeedStatuses, timeoutMs: number): () => Promise<Readiness> {
  return async () => {
    const states = await Promise.all(upstreams.map(async (upstream) => [upstream.service, await probeArea(upstream, timeoutMs)] as const));
    const probed = new Map<ServiceName, ServiceState>(states);
    const services = Object.fromEntries(ROUTED_AREAS.map(({ service }) => [service, probed.get(service) ?? 'not configured']));
    const feedStatuses = upstreams.map(({ service }) => [service, feeds.get(service)?.status() ?? 'no feed'] as const);
    const ready = states.length > 0 && states.every(([, state]) => state === 'ready') && feedStatuses.every(([, state]) => state === 'live');
    return { ready, services, feeds: Object.fromEntries(feedStatuses) };
  };
}

/**
 * The public port's liveness check: constant, and nothing behind it, for load balancers
 * that can only check the port they send traffic to.
 */
export const livez: RequestHandler = (_req, res) => {
  res.set('Cache-Control', 'no-store').json({ status: 'ok' });
};
