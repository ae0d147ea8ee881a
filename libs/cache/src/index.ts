export * from './types';
export * from './memory-page-cache';
export * from './redis-page-cache';
export * from './tiered-page-cache';
export * from './create-page-cache';
