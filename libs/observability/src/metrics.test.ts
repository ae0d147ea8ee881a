import { createMetrics } from './metrics';

describe('createMetrics', () => {
  it('labels every metric with the service and exposes request durations', async () => {
    const metrics = createMetrics('guardian', false);
    metrics.httpRequestDuration.observe({ method: 'GET', route: '/guardian/groups', status: '200' }, 0.004);
    metrics.counter('ledger_events_total', 'Ledger events', ['kind']).inc({ kind: 'applied' });
    const exported = await metrics.registry.getMetricsAsJSON();
    const values = (name: string) => exported.find((metric) => metric.name === name)?.values ?? [];
    expect(values('http_request_duration_seconds')).toContainEqual(
      expect.objectContaining({
        metricName: 'http_request_duration_seconds_count',
        value: 1,
        labels: { service: 'guardian', method: 'GET', route: '/guardian/groups', status: '200' },
      }),
    );
    expect(values('ledger_events_total')).toEqual([expect.objectContaining({ value: 1, labels: { service: 'guardian', kind: 'applied' } })]);
  });

  it('keeps registries of different processes apart', async () => {
    createMetrics('a', false).gauge('only_in_a', 'a gauge').set(1);
    expect(await createMetrics('b', false).registry.metrics()).not.toContain('only_in_a');
  });
});
