export * from './area';
export * from './config';
export * from './ledger-state';
export * from './main';
export * from './service';
