import type { Request, RequestHandler } from 'express';
import { LiveStreams, RETRY_AFTER_SECONDS } from '@ledger-api/http-core';
import { notFound, sendError } from '../errors';
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

/**
 * The gateway's live streams (api-behaviour.md section 9), one route per area, every one
 * fanned out from the area's commit feed: a block reaches a client once the edge cache has
 * moved on to it. Bounded per client address and per process.
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

  /** Ends every stream cleanly, as at shutdown: clients reconnect elsewhere and resume. */
  endAll(): void {
    this.streams.endAll();
  }

  route(service: string, feed: AreaFeed): RequestHandler {
    return (req, res, next) => {
      if (req.method !== 'GET' && req.method !== 'HEAD') return notFound(req, res, next);
      const [key] = Object.keys(req.query);
      if (key !== undefined) return sendError(res, 422, `"${key}" is not allowed`);
      if (feed.status() !== 'live') return sendError(res, 503, `${service} live stream is not available`);
      if (this.streams.size >= this.options.maxStreams) return sendError(res, 503, 'Too many live streams, try again shortly');
      const client = this.options.clientAddress(req) ?? 'unknown';
      const held = this.perClient.get(client) ?? 0;
      if (held >= this.options.maxPerClient) {
        res.setHeader('Retry-After', String(RETRY_AFTER_SECONDS));
        return sendError(res, 429, `At most ${this.options.maxPerClient} live streams per client`);
      }
      this.perClient.set(client, held + 1);
      res.once('close', () => {
        const left = (this.perClient.get(client) ?? 1) - 1;
        if (left > 0) this.perClient.set(client, left);
        else this.perClient.delete(client);
      });
      this.streams.serve(req, res, feed).catch(next);
    };
  }
}
