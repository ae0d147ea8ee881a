export * from './base-wallet';
export * from './public-keys';
export * from './schema';
