export * from './wait-for';
