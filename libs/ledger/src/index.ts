export * from './types';
export * from './projection/types';
export * from './address';
