export * from './area';
export * from './config';
export * from './position-reader';
export * from './main';
export * from './service';
