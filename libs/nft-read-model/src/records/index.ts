export * from './ledger-record';
export * from './resources';
export * from './transaction-types';
export * from './store-collections';
export * from './projection-part';
export * from './record-list';
