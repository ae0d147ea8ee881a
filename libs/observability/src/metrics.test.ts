import { createMetrics } from './metrics';

describe('createMetrics', () => {
  it('labels every metric with the service and exposes request durations', async () => {
    const metrics = createMetrics('guardian', false);
    for (const seconds of [0.004, 0.2]) metrics.observeRequest({ method: 'GET', route: '/guardian/groups', status: '200' }, seconds);
    metrics.observeRequest({ method: 'GET', route: '/guardian/groups', status: '404' }, 0.001);
    metrics.counter('ledger_events_total', 'Ledger events', ['kind']).inc({ kind: 'applied' });
    const exported = await metrics.registry.getMetricsAsJSON();
    const values = (name: string) => exported.find((metric) => metric.name === name)?.values ?? [];
    expect(values('http_request_duration_seconds')).toContainEqual(
      expect.objectContaining({
        metricName: 'http_request_duration_seconds_count',
        value: 2,
        labels: { service: 'guardian', method: 'GET', route: '/guardian/groups', status: '200' },
      }),
    );
    expect(values('http_request_duration_seconds')).toContainEqual(
      expect.objectContaining({
        metricName: 'http_request_duration_seconds_count',
        value: 1,
        labels: { service: 'guardian', method: 'GET', route: '/guardian/groups', status: '404' },
      }),
    );
    expect(values('ledger_events_total')).toEqual([expect.objectContaining({ value: 1, labels: { service: 'guardian', kind: 'applied' } })]);
  });

  it('makes histograms with the buckets given', async () => {
    const metrics = createMetrics('guardian', false);
    metrics.histogram('ledger_block_apply_duration_seconds', 'Block apply time', [], [0.01, 0.1]).labels({}).observe(0.05);
    const [histogram] = (await metrics.registry.getMetricsAsJSON()).filter((metric) => metric.name === 'ledger_block_apply_duration_seconds');
    expect(histogram.values.filter((value) => 'le' in value.labels)).toEqual([
      expect.objectContaining({ value: 0, labels: { service: 'guardian', le: 0.01 } }),
      expect.objectContaining({ value: 1, labels: { service: 'guardian', le: 0.1 } }),
      expect.objectContaining({ value: 1, labels: { service: 'guardian', le: '+Inf' } }),
    ]);
  });

  it('sets a collected gauge when it is scraped', async () => {
    const metrics = createMetrics('guardian', false);
    let pending = 3;
    metrics.gauge('ledger_consumer_pending_events', 'Pending events', [], async (gauge) => gauge.set(pending));
    expect(await metrics.registry.metrics()).toContain('ledger_consumer_pending_events{service="guardian"} 3');
    pending = 0;
    expect(await metrics.registry.metrics()).toContain('ledger_consumer_pending_events{service="guardian"} 0');
  });

  it('keeps registries of different processes apart', async () => {
    createMetrics('a', false).gauge('only_in_a', 'a gauge').set(1);
    expect(await createMetrics('b', false).registry.metrics()).not.toContain('only_in_a');
  });
});
