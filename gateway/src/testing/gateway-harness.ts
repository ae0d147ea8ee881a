import { createServer, get, request, type Agent, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { startAdminServer } from '@ledger-api/http-core';
import { createMetrics, silentLogger, type Logger, type Metrics } from '@ledger-api/observability';
import { buildApp } from '../app';
import { clientAddressOf } from '../client-address';
import { createGatewayEdge, type GatewayEdge } from '../edge';
import { parseGatewayConfig } from '../config';
import type { SharedCounts } from '../rate-limit';
import { gatewayReadiness } from '../readiness';
import { listen, portOf } from '../server';
import { configuredUpstreams } from '../upstreams';

/** Test doubles for the services and a gateway in front of them, all on 127.0.0.1 ephemeral ports. */

export interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export type UpstreamHandler = (req: ReceivedRequest, res: ServerResponse) => void;

export interface RunningServer {
  url: string;
  close(): Promise<void>;
}

export interface FakeService extends RunningServer {
  received: ReceivedRequest[];
}

async function stop(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** Answers every request with a JSON echo naming the service, unless given a handler. */
export async function startFakeService(name: string, handler?: UpstreamHandler): Promise<FakeService> {
  const received: ReceivedRequest[] = [];
  const echo: UpstreamHandler = (req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'x-block-height': '7' });
    res.end(JSON.stringify({ service: name, method: req.method, url: req.url, body: req.body }));
  };
  const server = createServer((req, res) => {
    void readBody(req).then((body) => {
      const request = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body };
      received.push(request);
      (handler ?? echo)(request, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${portOf(server)}`, received, close: () => stop(server) };
}

/** A GET whose path goes out exactly as given; fetch would normalise it first. */
export async function rawGet(baseUrl: string, path: string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    get({ hostname, port, path }, (res) => void readBody(res).then((body) => resolve({ status: res.statusCode ?? 0, body }), reject)).on(
      'error',
      reject,
    );
  });
}

export interface SentRequest {
  method?: string;
  headers?: Record<string, string>;
  /** Without it Node's client sends no Host header. */
  setHost?: boolean;
  /** Sent chunked unless a content-length header is given. */
  body?: string;
  agent?: Agent;
}

export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  reusedSocket: boolean;
}

/** A request as Node's client sends it: any method token, no Host if asked, no normalisation. */
export function send(url: string, { method = 'GET', headers = {}, setHost = true, body, agent }: SentRequest = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers, setHost, agent }, (res) => {
      void readBody(res).then((body) => resolve({ status: res.statusCode ?? 0, headers: res.headers, body, reusedSocket: req.reusedSocket }), reject);
    });
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

/** A request as sent, its answer's bytes as received: fetch would decode a compressed body. */
export function sendForBytes(
  url: string,
  { method = 'GET', headers = {} }: Pick<SentRequest, 'method' | 'headers'> = {},
): Promise<{ status: number; headers: IncomingHttpHeaders; bytes: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** A URL on which nothing listens: the port was just released. */
export async function refusingUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${portOf(server)}`;
  await stop(server);
  return url;
}

export interface GatewayOptions {
  logger?: Logger;
  rateLimitCounts?: SharedCounts;
  clock?: () => number;
  metrics?: Metrics;
  /** Follow the services' commit feeds: the edge cache (unless EDGE_CACHE_MB is 0) and live streams. */
  edge?: boolean;
  /** Serve the admin port too: readiness and metrics. */
  admin?: boolean;
}

export interface RunningGateway extends RunningServer {
  edge?: GatewayEdge;
  metrics: Metrics;
  /** Set when the admin port is served. */
  adminUrl?: string;
}

export async function startGateway(env: Record<string, string>, options: GatewayOptions = {}): Promise<RunningGateway> {
  const config = parseGatewayConfig({ RATE_LIMIT_PER_MINUTE: '0', ...env });
  const logger = options.logger ?? silentLogger();
  const metrics = options.metrics ?? createMetrics('gateway', false);
  const edge = options.edge ? createGatewayEdge(config, { logger, metrics, clientAddress: clientAddressOf(config) }) : undefined;
  const served = buildApp(config, { ...options, logger, metrics, edge });
  edge?.start();
  const server = await listen(served, 0, '127.0.0.1', {
    requestTimeoutMs: config.REQUEST_TIMEOUT_MS,
    keepAliveTimeoutMs: config.KEEP_ALIVE_TIMEOUT_MS,
  });
  const readiness = gatewayReadiness(configuredUpstreams(config), edge?.feeds ?? new Map(), config.READY_TIMEOUT_MS);
  const admin = options.admin ? await startAdminServer({ readiness, metrics, port: 0, host: '127.0.0.1' }) : undefined;
  return {
    url: `http://127.0.0.1:${portOf(server)}`,
    edge,
    metrics,
    adminUrl: admin && `http://127.0.0.1:${admin.port}`,
    async close() {
      edge?.stop();
      await Promise.all([stop(server), admin?.close()]);
    },
  };
}

/** Milliseconds an async operation took, with its result. */
export async function timed<T>(operation: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const startedAt = performance.now();
  const result = await operation();
  return { result, ms: performance.now() - startedAt };
}
