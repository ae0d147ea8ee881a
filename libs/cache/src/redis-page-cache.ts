import { Redis } from 'ioredis';
import {
  assertPositiveInteger,
  type CachedPage,
  type CacheLogger,
  type CacheMetrics,
  type ContentCoding,
  type PageCache,
  type PageVariant,
} from './types';

export interface RedisPageCacheOptions {
  url: string;
  /** Prepended to every key, so areas and deployments sharing a Redis never collide. */
  prefix: string;
  ttlSeconds: number;
  logger: CacheLogger;
  metrics?: CacheMetrics;
  /** Upper bound for one command and for one connection attempt. */
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 1000;
const MAX_RECONNECT_DELAY_MS = 2000;

/** Logs the start and end of an outage once each, however many requests run into it. */
class OutageLog {
  private down = false;

  constructor(private readonly logger: CacheLogger) {}

  failed(error: unknown): void {
    if (this.down) return;
    this.down = true;
    const reason = error instanceof Error ? error.message : String(error);
    this.logger.warn({ cache: 'redis', reason }, 'Redis page cache unavailable; serving pages uncached until it recovers');
  }

  recovered(): void {
    if (!this.down) return;
    this.down = false;
    this.logger.info({ cache: 'redis' }, 'Redis page cache available again');
  }
}

const CODINGS: readonly ContentCoding[] = ['br', 'gzip', 'identity'];

/** One representation as one hash field: `<coding> <etag>` and a newline, then the body's bytes. */
function packVariant({ encoding, etag, body }: PageVariant): Buffer {
  return Buffer.concat([Buffer.from(`${encoding} ${etag}\n`, 'latin1'), body]);
}

function unpackVariant(packed: Buffer): PageVariant {
  const space = packed.indexOf(0x20);
  const newline = packed.indexOf(0x0a, space);
  if (space < 0 || newline < 0) throw new Error('malformed cached page');
  return {
    encoding: packed.toString('latin1', 0, space) as ContentCoding,
    etag: packed.toString('latin1', space + 1, newline),
    body: packed.subarray(newline + 1),
  };
}

/**
 * Pages in Redis with a TTL, one hash per page with a field per content coding,
 * so a hit transfers only the representation the client gets. Redis being down
 * makes the API slower, never broken: with no offline queue and short timeouts,
 * every call settles quickly (a miss, or a dropped write) and never throws, while
 * the client keeps reconnecting in the background.
 */
export class RedisPageCache implements PageCache {
  readonly kind = 'redis' as const;
  private readonly client: Redis;
  private readonly outage: OutageLog;
  private readonly failures?: ReturnType<CacheMetrics['counter']>;

  constructor(private readonly options: RedisPageCacheOptions) {
    assertPositiveInteger('ttlSeconds', options.ttlSeconds);
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.outage = new OutageLog(options.logger);
    this.failures = options.metrics?.counter('page_cache_redis_failures_total', 'Page cache operations that fell back because Redis failed', [
      'operation',
    ]);
    this.client = new Redis(options.url, {
      keyPrefix: options.prefix,
      enableOfflineQueue: false,
      connectTimeout: timeoutMs,
      commandTimeout: timeoutMs,
      // Bounds how long close() leaves a half-closed socket behind.
      disconnectTimeout: timeoutMs,
      maxRetriesPerRequest: 1,
      retryStrategy: (attempt) => Math.min(attempt * 200, MAX_RECONNECT_DELAY_MS),
    });
    this.client.on('error', (error: unknown) => this.outage.failed(error));
    this.client.on('ready', () => this.outage.recovered());
  }

  async get(key: string, coding: ContentCoding): Promise<PageVariant | null> {
    try {
      const packed = await this.client.hgetBuffer(key, coding);
      this.outage.recovered();
      return packed && unpackVariant(packed);
    } catch (error) {
      this.commandFailed('get', error);
      return null;
    }
  }

  async set(key: string, page: CachedPage): Promise<void> {
    try {
      const fields = Object.fromEntries(CODINGS.map((coding) => [coding, packVariant(page[coding])]));
      // One transaction: a page never outlives its TTL because the connection dropped between two commands.
      const replies = await this.client.multi().hset(key, fields).expire(key, this.options.ttlSeconds).exec();
      const failed = replies?.find(([error]) => error)?.[0];
      if (failed) throw failed;
      this.outage.recovered();
    } catch (error) {
      this.commandFailed('set', error);
    }
  }

  /** Quits politely when connected; otherwise drops the connection and stops reconnecting. */
  async close(): Promise<void> {
    if (this.client.status === 'ready') {
      try {
        await this.client.quit();
        return;
      } catch {
        // Fall through to a hard disconnect.
      }
    }
    this.client.disconnect();
  }

  /**
   * While disconnected, the connection's own error events report the outage;
   * a command failing on a live connection (a timeout) is reported here.
   */
  private commandFailed(operation: 'get' | 'set', error: unknown): void {
    this.failures?.inc({ operation });
    if (this.client.status === 'ready') this.outage.failed(error);
  }
}
