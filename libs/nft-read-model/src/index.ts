export * from './records';
export * from './base';
export * from './projection';
export * from './wallet';
export * from './exchange';
