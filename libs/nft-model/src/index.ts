export * from './records';
export * from './testing/ledger-builder';
export * from './base';
export * from './projection';
export * from './wallet';
export * from './exchange';
