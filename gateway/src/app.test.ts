import { Writable } from 'node:stream';
import { INTERNAL_HEADERS } from '@ledger-api/http-core';
import { createLogger } from '@ledger-api/observability';
import { waitFor } from '@ledger-api/test-kit';
import { readOpenApiDocument } from './openapi';
import { startFakeService, startGateway, type FakeService, type RunningServer } from './testing/gateway-harness';

let service: FakeService;
let gateway: RunningServer;

beforeAll(async () => {
  service = await startFakeService('nft-base', (_req, res) => {
    // A service's own CORS answer, and what it tells the gateway alone, must not leak through the gateway.
    const internal = Object.fromEntries(INTERNAL_HEADERS.map((name) => [name, '1']));
    res.writeHead(200, { 'content-type': 'application/json', 'access-control-allow-origin': 'https://service.example', etag: '"v1"', ...internal });
    res.end('{"data":[]}');
  });
  gateway = await startGateway({ NFT_BASE_URL: service.url });
});

afterAll(async () => {
  await Promise.all([gateway.close(), service.close()]);
});

interface DocumentedResponse {
  $ref?: string;
  headers?: Record<string, unknown>;
}

/** Every header the API document says some answer carries. */
function documentedResponseHeaders(): string[] {
  const document = JSON.parse(readOpenApiDocument()) as {
    paths: Record<string, Record<string, { responses?: Record<string, DocumentedResponse> }>>;
    components: { responses: Record<string, DocumentedResponse> };
  };
  const resolved = (response: DocumentedResponse) => (response.$ref ? document.components.responses[response.$ref.split('/').pop()!] : response);
  const responses = Object.values(document.paths).flatMap((item) =>
    Object.values(item).flatMap((operation) => Object.values(operation.responses ?? {})),
  );
  return [...new Set(responses.flatMap((response) => Object.keys(resolved(response).headers ?? {})))];
}

/** Documented headers for what lies on the way, not for a script: the browser decodes the body, caches read Vary, proxies X-Accel-Buffering. */
const NOT_FOR_SCRIPTS = ['Content-Encoding', 'Vary', 'X-Accel-Buffering'];

describe('CORS', () => {
  it('opens proxied answers to every origin and exposes every header the API document describes to scripts', async () => {
    const response = await fetch(`${gateway.url}/api/nft/collections`, { headers: { origin: 'https://app.example' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    const exposed = response.headers.get('access-control-expose-headers')?.split(',') ?? [];
    expect(exposed.sort()).toEqual(
      documentedResponseHeaders()
        .filter((header) => !NOT_FOR_SCRIPTS.includes(header))
        .sort(),
    );
    expect(response.headers.get('etag')).toBe('"v1"');
  });

  it('opens error answers too', async () => {
    const response = await fetch(`${gateway.url}/api/nowhere`, { headers: { origin: 'https://app.example' } });
    expect(response.status).toBe(404);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('answers a preflight itself, without the service', async () => {
    const before = service.received.length;
    const response = await fetch(`${gateway.url}/api/nft/collections/search`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://app.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type,x-request-id',
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-methods')).toBe('GET,HEAD,POST,OPTIONS');
    expect(response.headers.get('access-control-allow-headers')).toBe('content-type,x-request-id');
    expect(service.received.length).toBe(before);
  });
});

const DOCUMENT_ONLY_HEADERS = [
  'cross-origin-opener-policy',
  'origin-agent-cluster',
  'referrer-policy',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
];

describe('security headers', () => {
  it('sets headers suited to a JSON API and hides the framework', async () => {
    const response = await fetch(`${gateway.url}/api/nft/collections`);
    expect(response.headers.get('content-security-policy')).toBe("default-src 'none';frame-ancestors 'none'");
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(response.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
    expect(response.headers.get('x-powered-by')).toBeNull();
  });

  it('never passes on what a service tells the gateway alone: the commit of an answer, whether it may be kept and for how long', async () => {
    const response = await fetch(`${gateway.url}/api/nft/collections`);
    expect(response.status).toBe(200);
    expect(INTERNAL_HEADERS).toEqual(['x-ledger-commit', 'x-ledger-storable', 'x-ledger-validity']);
    for (const name of INTERNAL_HEADERS) expect([name, response.headers.get(name)]).toEqual([name, null]);
  });

  it('leaves the headers that only govern HTML documents off API answers', async () => {
    const response = await fetch(`${gateway.url}/api/nft/collections`);
    for (const name of DOCUMENT_ONLY_HEADERS) expect([name, response.headers.get(name)]).toEqual([name, null]);
  });

  it('marks the gateway own error answers as not cacheable', async () => {
    const response = await fetch(`${gateway.url}/api/guardian/groups`);
    expect(response.status).toBe(503);
    expect(response.headers.get('cache-control')).toBe('no-store');
  });
});

describe('request logs', () => {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({ write: (chunk, _encoding, done) => done(void lines.push(JSON.parse(String(chunk)))) });
  let logged: RunningServer;
  const lineOf = async (reqId: string) => {
    await waitFor(() => lines.some((line) => line.reqId === reqId), `the log line of ${reqId}`);
    return lines.find((line) => line.reqId === reqId);
  };

  beforeAll(async () => {
    logged = await startGateway({ NFT_BASE_URL: service.url }, { logger: createLogger({ name: 'gateway', level: 'debug', destination: sink }) });
  });

  afterAll(() => logged.close());

  it('logs a request in the shape the services log it', async () => {
    await fetch(`${logged.url}/api/nft/collections?page=2`, { headers: { 'x-request-id': 'gateway-log-1', 'user-agent': 'tests/1' } });
    expect(await lineOf('gateway-log-1')).toEqual({
      level: 30,
      time: expect.any(String),
      service: 'gateway',
      name: 'gateway',
      msg: 'request completed',
      method: 'GET',
      url: '/api/nft/collections?page=2',
      route: 'nft-base',
      statusCode: 200,
      responseTime: expect.any(Number),
      reqId: 'gateway-log-1',
      userAgent: 'tests/1',
    });
  });

  it('logs liveness probes at debug', async () => {
    await fetch(`${logged.url}/livez`, { headers: { 'x-request-id': 'gateway-probe-livez' } });
    expect(await lineOf('gateway-probe-livez')).toMatchObject({ level: 20, url: '/livez', statusCode: 200 });
  });

  it('labels and logs a path by its route whatever trailing slashes it ends in', async () => {
    await fetch(`${logged.url}/livez/`, { headers: { 'x-request-id': 'gateway-probe-livez-slash' } });
    expect(await lineOf('gateway-probe-livez-slash')).toMatchObject({ level: 20, url: '/livez/', route: 'livez', statusCode: 200 });
  });
});
