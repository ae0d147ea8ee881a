export * from './raw-http';
export * from './event-stream';
