import type { Request, RequestHandler, Response } from 'express';
import {
  LiveStreams,
  PER_CLIENT_RETRY_AFTER_SECONDS,
  RETRY_AFTER_SECONDS,
  STREAM_RETRY_MS,
  unexpectedStreamQueryKey,
  type StreamUnavailableData,
} from '@ledger-api/http-core';
import { answerNotFound, sendError } from '../errors';
import type { AreaFeed } from './area-feed';

export interface PublicStreamsOptions {
  /** Concurrent streams one client address may hold (EVENTS_MAX_PER_CLIENT). */
  maxPerClient: number;
  /** Concurrent streams of the whole process (EVENTS_MAX_STREAMS). */
  maxStreams: number;
  keepAliveMs: number;
  /** Who the client is, as the rate limit sees it. */
  clientAddress(req: Request): string | undefined;
}

/** A feed that is not live is usually back within a reconnection of the service's stream. */
const FEED_RETRY_AFTER_SECONDS = STREAM_RETRY_MS / 1000;

/**
 * The gateway's live streams (docs/behaviour.md section 9), one route per area, every one
 * fanned out from the area's commit feed: a block reaches a client once the edge cache has
 * moved on to it. Bounded per client address and per process. What a client should simply
 * retry (no live feed yet, a cap reached, shutting down) is refused with a 200 stream that
 * ends with `unavailable`, which browsers retry; a wrong request gets its 4xx.
 */
export class PublicLiveStreams {
  private readonly streams: LiveStreams;
  private readonly perClient = new Map<string, number>();

  constructor(private readonly options: PublicStreamsOptions) {
    this.streams = new LiveStreams({ keepAliveMs: options.keepAliveMs });
  }

  get size(): number {
    return this.streams.size;
  }

  /** Ends every stream with a short retry, as at shutdown: clients reconnect elsewhere and resume. */
  endAll(): void {
    this.streams.endAll();
  }

  route(service: string, feed: AreaFeed): RequestHandler {
    return (req, res, next) => {
      if (req.method !== 'GET' && req.method !== 'HEAD') return answerNotFound(req, res, next);
      const key = unexpectedStreamQueryKey(Object.keys(req.query));
      if (key !== undefined) return sendError(res, 422, `"${key}" is not allowed`);
      const client = this.options.clientAddress(req) ?? 'unknown';
      const refusal = this.refusal(service, feed, client);
      if (refusal) return this.streams.refuse(req, res, refusal);
      this.hold(client, res);
      this.streams.serve(req, res, feed).catch(next);
    };
  }

  /** Why a stream cannot be served now, if it cannot. */
  private refusal(service: string, feed: AreaFeed, client: string): StreamUnavailableData | undefined {
    if (feed.status() !== 'live')
      return { reason: `The gateway has no live feed of ${service} yet: reconnect to resume`, retryAfter: FEED_RETRY_AFTER_SECONDS };
    if (this.streams.size >= this.options.maxStreams)
      return { reason: 'Too many live streams on this gateway: reconnect to resume', retryAfter: RETRY_AFTER_SECONDS };
    if ((this.perClient.get(client) ?? 0) >= this.options.maxPerClient)
      return { reason: `At most ${this.options.maxPerClient} live streams per client`, retryAfter: PER_CLIENT_RETRY_AFTER_SECONDS };
    return undefined;
  }

  /** Counts the stream against its client until it closes. */
  private hold(client: string, res: Response): void {
    this.perClient.set(client, (this.perClient.get(client) ?? 0) + 1);
    res.once('close', () => {
      const left = (this.perClient.get(client) ?? 1) - 1;
      if (left > 0) this.perClient.set(client, left);
      else this.perClient.delete(client);
    });
  }
}
