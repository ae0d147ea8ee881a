export * from './types';
export * from './memory-page-cache';
export type { RedisPageCacheOptions } from './redis-page-cache';
export * from './tiered-page-cache';
export * from './create-page-cache';
