/**
 * The slice of a pino logger the store uses; structural so this package does
 * not depend on the observability package.
 */
export interface StoreLogger {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
}
