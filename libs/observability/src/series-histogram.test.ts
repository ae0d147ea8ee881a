import fc from 'fast-check';
import { Histogram, Registry } from 'prom-client';
import { SeriesHistogram } from './series-histogram';

const BUCKETS = [0.001, 0.01, 0.1, 1];
const LABEL_NAMES = ['area', 'status'] as const;

function registries() {
  const ours = new Registry();
  const theirs = new Registry();
  for (const registry of [ours, theirs]) registry.setDefaultLabels({ service: 'gateway' });
  const series = new SeriesHistogram({ name: 'wait_seconds', help: 'A wait', labelNames: [...LABEL_NAMES], buckets: BUCKETS, registry: ours });
  const reference = new Histogram({ name: 'wait_seconds', help: 'A wait', labelNames: [...LABEL_NAMES], buckets: BUCKETS, registers: [theirs] });
  return { ours, theirs, series, reference };
}

/** The exposition's lines, sorted: the two list their series in orders of their own. */
const linesOf = async (registry: Registry) => (await registry.metrics()).split('\n').sort();

/** The JSON form's values, each as its name, labels (in name order) and value, sorted. */
async function jsonOf(registry: Registry): Promise<string[]> {
  const values = (await registry.getMetricsAsJSON()).flatMap(
    (metric) => metric.values as Array<{ metricName?: string; labels: object; value: number }>,
  );
  return values.map(({ metricName, labels, value }) => `${metricName} ${JSON.stringify(Object.entries(labels).sort())} ${value}`).sort();
}

describe('SeriesHistogram', () => {
  it("exposes what prom-client's histogram exposes for the same samples", async () => {
    const sample = fc.record({
      area: fc.constantFrom('guardian', 'nft-base'),
      status: fc.constantFrom('200', '503'),
      value: fc.oneof(fc.constantFrom(...BUCKETS, 0, 5), fc.double({ min: 0, max: 3, noNaN: true })),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(sample, { maxLength: 40 }), async (samples) => {
        const { ours, theirs, series, reference } = registries();
        for (const { area, status, value } of samples) {
          series.observe({ area, status }, value);
          reference.observe({ area, status }, value);
        }
        expect(await linesOf(ours)).toEqual(await linesOf(theirs));
        expect(await jsonOf(ours)).toEqual(await jsonOf(theirs));
      }),
      { numRuns: 100 },
    );
  });

  it('gives the same series for the same labels, and counts its samples there', async () => {
    const { ours, series } = registries();
    const held = series.labels({ area: 'guardian', status: '200' });
    expect(series.labels({ status: '200', area: 'guardian' })).toBe(held);
    held.observe(0.05);
    series.observe({ area: 'guardian', status: '200' }, 0.5);
    expect(await ours.metrics()).toContain('wait_seconds_count{service="gateway",area="guardian",status="200"} 2');
  });

  it('refuses a label set that leaves a label out', () => {
    const { series } = registries();
    expect(() => series.labels({ area: 'guardian' } as { area: string; status: string })).toThrow('label status has no value');
  });

  it('empties its series on a registry reset, as prom-client does', async () => {
    const { ours, theirs, series, reference } = registries();
    series.observe({ area: 'guardian', status: '200' }, 0.05);
    reference.observe({ area: 'guardian', status: '200' }, 0.05);
    for (const registry of [ours, theirs]) registry.resetMetrics();
    expect(await linesOf(ours)).toEqual(await linesOf(theirs));
  });
});
