export * from './logger';
export * from './metrics';
export * from './process-faults';
export type { HistogramSeries, SeriesHistogram } from './series-histogram';
