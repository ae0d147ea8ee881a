/**
 * A string store for rendered API pages. Keys come from the HTTP layer and
 * already contain the ledger generation, so entries never need invalidating;
 * they only expire.
 */
export interface PageCache {
  readonly kind: 'redis' | 'memory';
  /** The cached page, or null on a miss (or when the backing server is unavailable). */
  get(key: string): Promise<string | null>;
  set(key: string, value: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * The slice of a pino logger the cache uses; structural so this package does
 * not depend on the observability package.
 */
export interface CacheLogger {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
}

/** The slice of the observability package's Metrics the Redis cache uses. */
export interface CacheMetrics {
  counter(name: string, help: string, labelNames: string[]): { inc(labels: Record<string, string>): void };
}

export function assertPositiveInteger(name: string, value: number): void {
  if (!Number.isInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer, got ${value}`);
}
