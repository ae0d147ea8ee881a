import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export interface Metrics {
  registry: Registry;
  httpRequestDuration: Histogram<'method' | 'route' | 'status'>;
  counter<L extends string>(name: string, help: string, labelNames?: L[]): Counter<L>;
  gauge<L extends string>(name: string, help: string, labelNames?: L[]): Gauge<L>;
}

/** One registry per process, labelled with the service name, with Node's default metrics. */
export function createMetrics(service: string, collectDefaults = true): Metrics {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  if (collectDefaults) collectDefaultMetrics({ register: registry });
  const httpRequestDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by method, route and status',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  return {
    registry,
    httpRequestDuration,
    counter: (name, help, labelNames = []) => new Counter({ name, help, labelNames, registers: [registry] }),
    gauge: (name, help, labelNames = []) => new Gauge({ name, help, labelNames, registers: [registry] }),
  };
}
