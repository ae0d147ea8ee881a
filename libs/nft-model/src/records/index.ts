export * from './ledger-record';
export * from './list-config';
export * from './resources';
export * from './transaction-types';
export * from './store-collections';
export * from './projection-part';
export * from './find-page';
export * from './record-routes';
