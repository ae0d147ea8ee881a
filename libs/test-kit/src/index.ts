export * from './wait-for';
export * from './deadlines';
