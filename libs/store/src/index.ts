export * from './types';
export * from './sortable';
export * from './errors';
export * from './logger';
export * from './embedded-store';
export * from './mongo-store';
export * from './create-store';
export * from './query';
