import type { IncomingMessage } from 'node:http';
import type { Express, Request } from 'express';
import type { RequestHandlerOf } from '@ledger-api/http-core';
import type { RateLimiter } from '../rate-limit';
import { markEdgeAnswer, type RequestContext } from '../request-context';
import { isUnderMount, type Area } from '../upstreams';
import { edgeAnswerOf, type EdgeRequest } from './edge-answers';
import type { EdgeEntry } from './edge-cache';

type HeaderList = ReadonlyArray<readonly [string, string | string[]]>;

export interface EdgeFrontOptions {
  /** Answers every request the front does not. */
  app: Express;
  /** Each area with an edge cache, in routing order, and the answer kept for a request of it. */
  areas: ReadonlyArray<{ area: Area; find(request: EdgeRequest): EdgeEntry | undefined }>;
  context: RequestContext;
  rateLimiter: RateLimiter | undefined;
}

/** Headers in the flat form writeHead takes at once, name then value: no header map is built for them. */
function flat(...lists: HeaderList[]): Array<string | string[]> {
  const headers: Array<string | string[]> = [];
  for (const list of lists) for (const [name, value] of list) headers.push(name, value);
  return headers;
}

/**
 * Answers edge hits before Express: a hit reaches no service, and Express's router, its
 * middleware chain and a header set one by one cost it more than everything else it needs.
 * It gets what it would get through Express (request id, fixed headers, rate limit, log
 * line and metrics) and the same answer, its headers written at once. Everything else,
 * misses, requests with a body and other forms of request target among them, goes to Express.
 */
export function answerHitsFirst({ app, areas, context, rateLimiter }: EdgeFrontOptions): RequestHandlerOf {
  // The fixed headers an entry does not set itself: a service's own value wins, as when its answer is proxied.
  const fixedBeside = new WeakMap<EdgeEntry, ReadonlyArray<readonly [string, string]>>();
  const fixedHeadersBeside = (entry: EdgeEntry) => {
    let fixed = fixedBeside.get(entry);
    if (!fixed) {
      const own = new Set(entry.headers.map(([name]) => name));
      fixed = context.fixedHeaders.filter(([name]) => !own.has(name.toLowerCase()));
      fixedBeside.set(entry, fixed);
    }
    return fixed;
  };
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
  return (req, res) => {
    const hit = hitOf(req);
    if (!hit) return app(req, res);
    // As Express does for the requests it handles: the rate limit reads the client's address through it.
    Object.setPrototypeOf(req, app.request);
    markEdgeAnswer(res);
    const id = context.begin(req, res, hit.area.service);
    const admission = rateLimiter?.admit(req as Request);
    const lead: Array<readonly [string, string]> = [['X-Request-Id', id], ...fixedHeadersBeside(hit.entry), ...(admission?.headers ?? [])];
    if (rateLimiter && admission?.retryAfter !== undefined) return rateLimiter.refuse(res, lead, admission.retryAfter);
    const { status, headers, body } = edgeAnswerOf(req, hit.entry);
    res.writeHead(status, flat(lead, headers)).end(body);
  };
}
