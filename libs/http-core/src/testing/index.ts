export * from './raw-http';
