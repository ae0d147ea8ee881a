export * from './body';
export * from './compression';
export * from './errors';
export * from './http-server';
export * from './openapi-components';
export * from './page-key';
export * from './path';
export * from './shutdown';
