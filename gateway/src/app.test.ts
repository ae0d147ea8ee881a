import { startFakeService, startGateway, type FakeService, type RunningServer } from './testing/gateway-harness';

let service: FakeService;
let gateway: RunningServer;

beforeAll(async () => {
  service = await startFakeService('nft-base', (_req, res) => {
    // A service's own CORS answer must not leak through the gateway.
    res.writeHead(200, { 'content-type': 'application/json', 'access-control-allow-origin': 'https://service.example', etag: '"v1"' });
    res.end('{"data":[]}');
  });
  gateway = await startGateway({ NFT_BASE_URL: service.url });
});

afterAll(async () => {
  await Promise.all([gateway.close(), service.close()]);
});

const EXPOSED = [
  'X-Block-Height',
  'X-Request-Id',
  'ETag',
  'Cache-Control',
  'Retry-After',
  'RateLimit',
  'RateLimit-Policy',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
];

describe('CORS', () => {
  it('opens proxied answers to every origin and exposes the API headers', async () => {
    const response = await fetch(`${gateway.url}/api/nft/collections`, { headers: { origin: 'https://app.example' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-expose-headers')?.split(',')).toEqual(EXPOSED);
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

describe('security headers', () => {
  it('sets headers suited to a JSON API and hides the framework', async () => {
    const response = await fetch(`${gateway.url}/api/nft/collections`);
    expect(response.headers.get('content-security-policy')).toBe("default-src 'none';frame-ancestors 'none'");
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(response.headers.get('x-powered-by')).toBeNull();
  });

  it('marks the gateway own error answers as not cacheable', async () => {
    const response = await fetch(`${gateway.url}/api/guardian/groups`);
    expect(response.status).toBe(503);
    expect(response.headers.get('cache-control')).toBe('no-store');
  });
});
