export * from './documents';
export * from './projection';
export * from './wallet-keys';
export * from './search-form';
