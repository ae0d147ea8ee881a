import { createMetrics } from '@ledger-api/observability';
import { startAdminServer, type AdminServer, type Readiness } from './admin-server';

let readiness: () => Promise<Readiness>;
let admin: AdminServer;
let base: string;

beforeAll(async () => {
  const metrics = createMetrics('admin-test', false);
  metrics.counter('admin_test_total', 'A counter the scrape must show').inc();
  admin = await startAdminServer({ readiness: () => readiness(), metrics, port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${admin.port}`;
});

afterAll(() => admin.close());

describe('the admin port', () => {
  it('answers liveness', async () => {
    const response = await fetch(`${base}/livez`);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.json()).toEqual({ status: 'ok' });
  });

  it('answers readiness with its details, 503 and Retry-After while not ready', async () => {
    readiness = async () => ({ ready: true, height: 7 });
    expect([(await fetch(`${base}/readyz`)).status, await (await fetch(`${base}/readyz/`)).json()]).toEqual([
      200,
      { status: 'ready', ready: true, height: 7 },
    ]);
    readiness = async () => ({ ready: false, reason: 'replaying' });
    const notReady = await fetch(`${base}/readyz`);
    expect(notReady.status).toBe(503);
    expect(notReady.headers.get('retry-after')).toBe('5');
    expect(await notReady.json()).toEqual({ status: 'not ready', ready: false, reason: 'replaying' });
  });

  it('answers a failing readiness check as not ready, with its message', async () => {
    readiness = () => Promise.reject(new Error('store unreachable'));
    const response = await fetch(`${base}/readyz`);
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ status: 'not ready', ready: false, error: 'store unreachable' });
  });

  it('serves the metrics in the Prometheus text format', async () => {
    const response = await fetch(`${base}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await response.text()).toMatch(/^admin_test_total\{service="admin-test"\} 1$/m);
  });

  it('answers anything else 404 in the error format', async () => {
    for (const [path, method] of [
      ['/api/nft/assets', 'GET'],
      ['/metrics', 'POST'],
      ['/LIVEZ', 'GET'],
    ]) {
      const response = await fetch(`${base}${path}`, { method });
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ statusCode: 404, error: 'Not Found', message: 'Not Found' });
    }
  });
});

describe('the admin port of a process shutting down', () => {
  it('answers readiness 503 from the shutdown signal on, and liveness and metrics as before', async () => {
    const shutting = await startAdminServer({
      readiness: async () => ({ ready: true }),
      metrics: createMetrics('admin-shutdown-test', false),
      port: 0,
      host: '127.0.0.1',
      shutdownSignals: ['SIGUSR2'],
    });
    const url = (path: string) => `http://127.0.0.1:${shutting.port}${path}`;
    try {
      expect((await fetch(url('/readyz'))).status).toBe(200);
      process.emit('SIGUSR2', 'SIGUSR2');
      const readyz = await fetch(url('/readyz'));
      expect([readyz.status, await readyz.json()]).toEqual([503, { status: 'not ready', ready: false, reason: 'shutting down' }]);
      expect((await fetch(url('/livez'))).status).toBe(200);
      expect((await fetch(url('/metrics'))).status).toBe(200);
    } finally {
      await shutting.close();
    }
    expect(process.listenerCount('SIGUSR2')).toBe(0);
  });
});
