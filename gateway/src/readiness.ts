import type { RequestHandler } from 'express';
import { RETRY_AFTER_SECONDS } from '@ledger-api/http-core';
import { AREAS, type ServiceName, type Upstream } from './upstreams';

type ServiceState = 'ready' | 'not ready' | 'unreachable' | 'timed out' | 'not configured';

interface ReadinessReport {
  ready: boolean;
  services: Record<ServiceName, ServiceState>;
}

async function probe(baseUrl: string, timeoutMs: number): Promise<ServiceState> {
  try {
    const response = await fetch(`${baseUrl}/readyz`, { signal: AbortSignal.timeout(timeoutMs) });
    // Only the status matters; dropping the body frees the connection.
    await response.body?.cancel();
    return response.status === 200 ? 'ready' : 'not ready';
  } catch (error) {
    return (error as Error).name === 'TimeoutError' ? 'timed out' : 'unreachable';
  }
}

/** An area is ready while any of its replicas is: the others may be restarting one by one. */
async function probeArea(upstream: Upstream, timeoutMs: number): Promise<ServiceState> {
  const states = await Promise.all(upstream.baseUrls.map((baseUrl) => probe(baseUrl, timeoutMs)));
  return states.includes('ready') ? 'ready' : states[0];
}

/**
 * Ready only when at least one service is configured and every configured one says
 * it is ready; the services are asked in parallel so the answer takes one timeout at most.
 */
async function checkReadiness(upstreams: Upstream[], timeoutMs: number): Promise<ReadinessReport> {
  const states = await Promise.all(upstreams.map(async (upstream) => [upstream.service, await probeArea(upstream, timeoutMs)] as const));
  const probed = new Map<ServiceName, ServiceState>(states);
  const services = Object.fromEntries(AREAS.map(({ service }) => [service, probed.get(service) ?? 'not configured'])) as Record<
    ServiceName,
    ServiceState
  >;
  const ready = states.length > 0 && states.every(([, state]) => state === 'ready');
  return { ready, services };
}

export function readyz(upstreams: Upstream[], timeoutMs: number): RequestHandler {
  return async (_req, res) => {
    const { ready, services } = await checkReadiness(upstreams, timeoutMs);
    if (!ready) res.set('Retry-After', String(RETRY_AFTER_SECONDS));
    res
      .set('Cache-Control', 'no-store')
      .status(ready ? 200 : 503)
      .json({ status: ready ? 'ready' : 'not ready', services });
  };
}

export const livez: RequestHandler = (_req, res) => {
  res.set('Cache-Control', 'no-store').json({ status: 'ok' });
};
