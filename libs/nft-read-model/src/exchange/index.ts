export * from './documents';
export * from './projection';
