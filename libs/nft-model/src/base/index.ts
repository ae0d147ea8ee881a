export * from './documents';
export * from './projection';
export * from './wallet-keys';
