import type { Metric, Registry } from 'prom-client';

interface ExportedValue {
  metricName: string;
  labels: Record<string, string | number>;
  sharedLabels?: Readonly<Record<string, string>>;
  value: number;
}

interface ExportedHistogram {
  name: string;
  help: string;
  type: 'histogram';
  aggregator: 'sum';
  values: ExportedValue[];
}

/** One label set of a histogram: what its observer holds on to. */
export interface HistogramSeries {
  observe(value: number): void;
}

export interface SeriesHistogramOptions<L extends string> {
  name: string;
  help: string;
  labelNames: readonly L[];
  /** Upper bounds, ascending, in the metric's unit. */
  buckets: readonly number[];
  registry: Registry;
}

class Series implements HistogramSeries {
  /** Samples per bucket, not cumulative; the last one counts those above every bound. */
  readonly counts: Float64Array;
  sum = 0;
  count = 0;

  constructor(
    readonly labels: Readonly<Record<string, string>>,
    private readonly bounds: readonly number[],
  ) {
    this.counts = new Float64Array(bounds.length + 1);
  }

  observe(value: number): void {
    let bucket = 0;
    while (bucket < this.bounds.length && value > this.bounds[bucket]) bucket += 1;
    this.counts[bucket] += 1;
    this.sum += value;
    this.count += 1;
  }
}

/**
 * A histogram whose series are looked up once, by the code that observes them, and then count
 * a sample with a bucket search and three additions. prom-client's own histogram validates,
 * converts and hashes the labels again on every observation, even through `labels()`: at the
 * gateway its two samples per proxied request cost more than the rest of the request's metrics
 * and logging together (bench-results/gateway-costs-2026-11-28.md). The registry exposes it as
 * it exposes a prom-client histogram: the same series, names and labels.
 */
export class SeriesHistogram<L extends string> {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  readonly name: string;
  readonly help: string;
  private readonly labelNames: readonly L[];
  private readonly bounds: readonly number[];
  private readonly series = new Map<string, Series>();

  constructor({ name, help, labelNames, buckets, registry }: SeriesHistogramOptions<L>) {
    this.name = name;
    this.help = help;
    this.labelNames = labelNames;
    this.bounds = [...buckets].sort((a, b) => a - b);
    // The registry reads a metric through name, help, type, aggregator, get(), getForPromString() and reset() alone.
    registry.registerMetric(this as unknown as Metric);
  }

  /** The series of one label set (every label named), made on first use. */
  labels(labels: Readonly<Record<L, string>>): HistogramSeries {
    let key = '';
    for (const name of this.labelNames) key += `${labels[name]}\u0000`;
    let series = this.series.get(key);
    if (!series) {
      const missing = this.labelNames.find((name) => typeof labels[name] !== 'string');
      if (missing !== undefined) throw new Error(`${this.name}: label ${missing} has no value`);
      series = new Series(Object.fromEntries(this.labelNames.map((name) => [name, labels[name]])), this.bounds);
      this.series.set(key, series);
    }
    return series;
  }

  /** Adds a sample to the series of the given labels. */
  observe(labels: Readonly<Record<L, string>>, value: number): void {
    this.labels(labels).observe(value);
  }

  /** Every series with samples, labels whole, as prom-client's histogram gives them for JSON. */
  async get(): Promise<ExportedHistogram> {
    const exported = await this.getForPromString();
    const values = exported.values.map(({ sharedLabels, labels, ...value }) => ({ ...value, labels: { ...sharedLabels, ...labels } }));
    return { ...exported, values };
  }

  /**
   * Every series with samples, for the registry's text: each value's own labels (`le`) apart from
   * its series' (`sharedLabels`), as prom-client's histogram gives them, so that the text names
   * labels in the same order.
   */
  getForPromString(): Promise<ExportedHistogram> {
    const values: ExportedValue[] = [];
    for (const series of this.series.values()) if (series.count > 0) values.push(...this.valuesOf(series));
    return Promise.resolve({ name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values });
  }

  reset(): void {
    for (const series of this.series.values()) {
      series.counts.fill(0);
      series.sum = 0;
      series.count = 0;
    }
  }

  private valuesOf({ labels: sharedLabels, counts, sum, count }: Series): ExportedValue[] {
    const bucketName = `${this.name}_bucket`;
    let cumulative = 0;
    const buckets = this.bounds.map((bound, index) => {
      cumulative += counts[index];
      return { metricName: bucketName, labels: { le: bound }, sharedLabels, value: cumulative };
    });
    return [
      ...buckets,
      { metricName: bucketName, labels: { le: '+Inf' }, sharedLabels, value: count },
      { metricName: `${this.name}_sum`, labels: {}, sharedLabels, value: sum },
      { metricName: `${this.name}_count`, labels: {}, sharedLabels, value: count },
    ];
  }
}
