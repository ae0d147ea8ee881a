import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request } from 'express';
import { flatHeaders, type HeaderPolicy } from '../header-policy';
import type { RateLimiter } from '../rate-limit';
import type { RequestContext } from '../request-context';
import { isUnderMount, type RoutedArea } from '../upstreams';
import { edgeAnswerOf, type EdgeRequest } from './edge-answers';
import type { EdgeEntry } from './edge-cache';

/** An area with an edge cache, and the answer kept for a request of it. */
export interface EdgeHitArea {
  area: RoutedArea;
  find(request: EdgeRequest): EdgeEntry | undefined;
}

export interface EdgeHitsOptions {
  /** In routing order. */
  areas: readonly EdgeHitArea[];
  headers: HeaderPolicy;
  rateLimiter: RateLimiter | undefined;
}

/** Answers a request if it is an edge hit; true when it did. */
export type EdgeHits = (req: IncomingMessage, res: ServerResponse, context: RequestContext) => boolean;

/**
 * Answers edge hits before Express: a hit reaches no service, and Express's router, its
 * middleware chain and a header set one by one cost it more than everything else it needs.
 * It gets what it would get through Express (request id, the gateway's headers, rate limit,
 * log line and metrics) and the same answer, its headers written at once. Everything else,
 * misses, requests with a body and other forms of request target among them, is left to Express.
 * The request's prototype is already Express's (see listen): the rate limit reads the
 * client's address through it.
 */
export function edgeHits({ areas, headers, rateLimiter }: EdgeHitsOptions): EdgeHits {
  const hitOf = (req: IncomingMessage) => {
    const url = req.url ?? '';
    if ((req.method !== 'GET' && req.method !== 'HEAD') || url[0] !== '/') return undefined;
    if (req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined) return undefined;
    const queryAt = url.indexOf('?');
    const path = queryAt === -1 ? url : url.slice(0, queryAt);
    const edge = areas.find(({ area }) => isUnderMount(path, area));
    if (!edge) return undefined;
    const querystring = queryAt === -1 ? '' : url.slice(queryAt + 1);
    const request = {
      method: req.method,
      path: path.slice(edge.area.mountPath.length) || '/',
      querystring,
      acceptEncoding: req.headers['accept-encoding'],
    };
    const entry = edge.find(request);
    return entry && { area: edge.area, entry };
  };
  return (req, res, context) => {
    const hit = hitOf(req);
    if (!hit) return false;
    context.route = hit.area.service;
    context.answeredAtEdge = true;
    const admission = rateLimiter?.admit(req as Request);
    const own = headers.gatewayHeadersBeside(context.id, hit.entry.headers, admission?.headers ?? []);
    if (rateLimiter && admission?.retryAfter !== undefined) rateLimiter.refuse(res, own, admission.retryAfter);
    else {
      const { status, headers: entryHeaders, body } = edgeAnswerOf(req, hit.entry);
      res.writeHead(status, flatHeaders(own, entryHeaders)).end(body);
    }
    return true;
  };
}
