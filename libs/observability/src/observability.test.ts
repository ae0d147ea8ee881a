import { Writable } from 'node:stream';
import { createLogger, silentLogger } from './logger';
import { createMetrics } from './metrics';

describe('createMetrics', () => {
  it('labels every metric with the service and exposes request durations', async () => {
    const metrics = createMetrics('guardian', false);
    metrics.httpRequestDuration.observe({ method: 'GET', route: '/guardian/groups', status: '200' }, 0.004);
    metrics.counter('ledger_events_total', 'Ledger events', ['kind']).inc({ kind: 'applied' });
    const exported = await metrics.registry.getMetricsAsJSON();
    const values = (name: string) => exported.find((metric) => metric.name === name)?.values ?? [];
    expect(values('http_request_duration_seconds')).toContainEqual(
      expect.objectContaining({ metricName: 'http_request_duration_seconds_count', value: 1, labels: { service: 'guardian', method: 'GET', route: '/guardian/groups', status: '200' } }),
    );
    expect(values('ledger_events_total')).toEqual([expect.objectContaining({ value: 1, labels: { service: 'guardian', kind: 'applied' } })]);
  });

  it('keeps registries of different processes apart', async () => {
    createMetrics('a', false).gauge('only_in_a', 'a gauge').set(1);
    expect(await createMetrics('b', false).registry.metrics()).not.toContain('only_in_a');
  });
});

describe('loggers', () => {
  it('writes JSON lines naming the service', () => {
    const lines: string[] = [];
    const sink = new Writable({ write: (chunk, _encoding, done) => done(void lines.push(String(chunk))) });
    const logger = createLogger({ name: 'gateway', destination: sink });
    logger.info({ reqId: 'r1' }, 'request');
    expect(JSON.parse(lines[0])).toMatchObject({ service: 'gateway', reqId: 'r1', msg: 'request', level: 30 });
  });

  it('has a silent logger for tests and defaults', () => {
    expect(silentLogger().isLevelEnabled('fatal')).toBe(false);
    expect(createLogger({ name: 'x', level: 'warn' }).isLevelEnabled('info')).toBe(false);
  });
});
