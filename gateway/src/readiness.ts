import type { RequestHandler } from 'express';
import type { Readiness } from '@ledger-api/http-core';
import type { FeedState } from './edge';
import { probe, type ProbeResult } from './probe';
import { AREAS, type ServiceName, type Upstream } from './upstreams';

type ServiceState = ProbeResult | 'not configured' | 'no admin url';

/** An area is ready while any of its replicas is, on its admin port: the others may be restarting one by one. */
async function probeArea(upstream: Upstream, timeoutMs: number): Promise<ServiceState> {
  if (upstream.adminUrls.length === 0) return 'no admin url';
  const states = await Promise.all(upstream.adminUrls.map((adminUrl) => probe(`${adminUrl}/readyz`, timeoutMs)));
  return states.includes('ready') ? 'ready' : states[0];
}

/** An area's commit feed, as readiness sees it. */
export type FeedStates = ReadonlyMap<ServiceName, { status(): FeedState }>;

/**
 * The gateway's /readyz, on its admin port: ready only when at least one service is
 * configured, every configured one says it is ready, and the commit feed of every one is
 * live (docs/behaviour.md section 9): before, its live streams would refuse clients. The
 * services are asked in parallel so the answer takes one timeout at most.
 */
export function gatewayReadiness(upstreams: Upstream[], feeds: FeedStates, timeoutMs: number): () => Promise<Readiness> {
  return async () => {
    const states = await Promise.all(upstreams.map(async (upstream) => [upstream.service, await probeArea(upstream, timeoutMs)] as const));
    const probed = new Map<ServiceName, ServiceState>(states);
    const services = Object.fromEntries(AREAS.map(({ service }) => [service, probed.get(service) ?? 'not configured']));
    const feedStates = upstreams.map(({ service }) => [service, feeds.get(service)?.status() ?? 'no feed'] as const);
    const ready = states.length > 0 && states.every(([, state]) => state === 'ready') && feedStates.every(([, state]) => state === 'live');
    return { ready, services, feeds: Object.fromEntries(feedStates) };
  };
}

/**
 * The public port's liveness check: constant, and nothing behind it, for load balancers
 * that can only check the port they send traffic to.
 */
export const livez: RequestHandler = (_req, res) => {
  res.set('Cache-Control', 'no-store').json({ status: 'ok' });
};
