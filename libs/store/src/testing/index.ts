export * from './recording-store';
export * from './query-shape';
export * from './index-coverage';
export * from './query-matrix';
export * from './route-queries';
export * from './mongo-fixture';
