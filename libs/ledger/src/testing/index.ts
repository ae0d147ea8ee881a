// Test kits of the ledger library, published as `@ledger-api/ledger/testing`
// so that no production import ever loads them.
export * from './test-ledger';
export * from './ledger-file';
export * from './sender-count-projection';
export * from './ledger-publisher';
export * from './nats-server';
export * from './read-model';
export * from './projection-runner';
export * from './pausing-store';
export * from './pushed-source';
