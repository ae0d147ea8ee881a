import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import { SeriesHistogram } from './series-histogram';

/** Sets a gauge's values when it is scraped, for values read on demand rather than tracked as they change. */
export type GaugeCollector<L extends string> = (gauge: Gauge<L>) => void | Promise<void>;

export interface RequestLabels {
  method: string;
  /** A small, fixed set of names: raw paths would give the metric unbounded cardinality. */
  route: string;
  status: string;
}

export interface Metrics {
  registry: Registry;
  /** Adds a request's duration to http_request_duration_seconds. */
  observeRequest(labels: RequestLabels, seconds: number): void;
  counter<L extends string>(name: string, help: string, labelNames?: L[]): Counter<L>;
  gauge<L extends string>(name: string, help: string, labelNames?: L[], collect?: GaugeCollector<L>): Gauge<L>;
  /** `buckets` are upper bounds in the metric's unit; prom-client's defaults (5 ms to 10 s) otherwise. */
  histogram<L extends string>(name: string, help: string, labelNames?: L[], buckets?: number[]): SeriesHistogram<L>;
}

/** Records each HTTP request's duration in `http_request_duration_seconds`. */
function requestObserver(registry: Registry): Metrics['observeRequest'] {
  const httpRequestDuration = new SeriesHistogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by method, route and status',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registry,
  });
  return (labels, seconds) => httpRequestDuration.observe(labels, seconds);
}

/** prom-client's default buckets, 5 ms to 10 s. */
const DEFAULT_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** One registry per process, labelled with the service name, with Node's default metrics. */
export function createMetrics(service: string, collectDefaults = true): Metrics {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  if (collectDefaults) collectDefaultMetrics({ register: registry });
  return {
    registry,
    observeRequest: requestObserver(registry),
    counter: (name, help, labelNames = []) => new Counter({ name, help, labelNames, registers: [registry] }),
    gauge: (name, help, labelNames = [], collect) =>
      new Gauge({
        name,
        help,
        labelNames,
        registers: [registry],
        ...(collect && {
          collect() {
            return collect(this);
          },
        }),
      }),
    histogram: (name, help, labelNames = [], buckets = DEFAULT_BUCKETS) => new SeriesHistogram({ name, help, labelNames, buckets, registry }),
  };
}
