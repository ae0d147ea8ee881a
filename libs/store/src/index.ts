export * from './types';
export * from './sortable';
