/** The content codings a page is kept in. */
export type ContentCoding = 'br' | 'gzip' | 'identity';

/** One representation of a page: its bytes in one content coding and the ETag naming them. */
export interface PageVariant {
  encoding: ContentCoding;
  etag: string;
  body: Buffer;
}

/**
 * A rendered page made ready for every client: for each coding a client may be
 * answered in, the representation it gets (a small page is plain under all three).
 */
export type CachedPage = Readonly<Record<ContentCoding, PageVariant>>;

/**
 * A store for rendered API pages. Keys come from the HTTP layer and already
 * contain the ledger generation, so entries never need invalidating; they only
 * expire. A page is stored with all its representations and read back one at a
 * time: a hit costs the bytes of the one representation the client gets.
 */
export interface PageCache {
  readonly kind: 'redis' | 'memory';
  /** The page's representation for `coding`, or null on a miss (or when the backing server is unavailable). */
  get(key: string, coding: ContentCoding): Promise<PageVariant | null>;
  set(key: string, page: CachedPage): Promise<void>;
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
