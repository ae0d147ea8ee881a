import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import type { Metrics } from '@ledger-api/observability';
import { errorBody, RETRY_AFTER_SECONDS } from './errors';
import { drainServer } from './drain';
import { createHttpServer } from './http-server';
import { normalizePath } from './path';
import { SHUTDOWN_SIGNALS } from './shutdown';

/** What a process says on `/readyz`: whether it is ready, and any detail for operators. */
export interface Readiness {
  ready: boolean;
  [detail: string]: unknown;
}

export interface AdminServerOptions {
  readiness(): Promise<Readiness>;
  metrics: Pick<Metrics, 'registry'>;
  port: number;
  host: string;
  /**
   * From the first of these on, `/readyz` answers 503 whatever `readiness` says: the process
   * serves on through SHUTDOWN_DELAY_MS, and its endpoints must leave the load balancers meanwhile.
   */
  shutdownSignals?: readonly NodeJS.Signals[];
}

export interface AdminServer {
  readonly port: number;
  close(): Promise<void>;
}

/** How long a probe or scrape still running at shutdown may take to finish. */
const ADMIN_CLOSE_DEADLINE_MS = 1_000;

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' }).end(JSON.stringify(body));
}

const SHUTTING_DOWN: Readiness = { ready: false, reason: 'shutting down' };

async function answerReadiness(check: () => Promise<Readiness>, res: ServerResponse): Promise<void> {
  const readiness = await check().catch((error: Error): Readiness => ({ ready: false, error: error.message }));
  if (!readiness.ready) res.setHeader('Retry-After', String(RETRY_AFTER_SECONDS));
  sendJson(res, readiness.ready ? 200 : 503, { status: readiness.ready ? 'ready' : 'not ready', ...readiness });
}

async function answerMetrics(options: AdminServerOptions, res: ServerResponse): Promise<void> {
  const { registry } = options.metrics;
  const text = await registry.metrics();
  res.writeHead(200, { 'Content-Type': registry.contentType, 'Cache-Control': 'no-store' }).end(text);
}

function adminHandler(options: AdminServerOptions, shuttingDown: () => boolean) {
  const readiness = () => (shuttingDown() ? Promise.resolve(SHUTTING_DOWN) : options.readiness());
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = normalizePath(new URL(req.url ?? '/', 'http://admin').pathname);
    const readOnly = req.method === 'GET' || req.method === 'HEAD';
    try {
      if (readOnly && path === '/livez') sendJson(res, 200, { status: 'ok' });
      else if (readOnly && path === '/readyz') await answerReadiness(readiness, res);
      else if (readOnly && path === '/metrics') await answerMetrics(options, res);
      else sendJson(res, 404, errorBody(404, 'Not Found'));
    } catch (error) {
      if (!res.headersSent) sendJson(res, 500, errorBody(500, (error as Error).message));
    }
  };
}

/**
 * The admin port of a process: liveness, readiness and metrics, apart from the public
 * port so that probes and scrapes are reachable only where the network lets them be
 * (deploy/k8s NetworkPolicy) and no client can make the process probe anything.
 * From a shutdown signal on, readiness is 503 for every process alike, while the process
 * still serves through its shutdown delay.
 */
export async function startAdminServer(options: AdminServerOptions): Promise<AdminServer> {
  const { shutdownSignals = SHUTDOWN_SIGNALS } = options;
  let shuttingDown = false;
  const onSignal = () => (shuttingDown = true);
  for (const signal of shutdownSignals) process.on(signal, onSignal);
  const server: Server = createHttpServer(adminHandler(options, () => shuttingDown)).listen(options.port, options.host);
  await once(server, 'listening');
  return {
    port: (server.address() as AddressInfo).port,
    async close() {
      for (const signal of shutdownSignals) process.off(signal, onSignal);
      // Probes and scrapes need no grace: the answers in flight finish, nothing waits for new ones.
      await drainServer(server, { delayMs: 0, drainMs: 0, deadlineMs: ADMIN_CLOSE_DEADLINE_MS });
    },
  };
}
