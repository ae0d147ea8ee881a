import type Router from '@koa/router';
import type { Middleware } from 'koa';
import { z } from 'zod';
import { ApiError, STORABLE, STORABLE_HEADER, UNTIL_DATA_CHANGES, VALIDITY_HEADER } from '@ledger-api/http-core';
import type { ServedLedgerState } from './types';
import { parseJsonBody, readBodyText } from './body';
import { decodeCursor } from './cursor';
import { readAtHeight, type HistoryReach, type HistoryReads, type RouteInputLocation } from './history';
import type { RequestLocation } from './paging';
import { validate } from './validation';

export interface RouteInput<P, Q, B> {
  params: P;
  query: Q;
  body: B;
  location: RequestLocation;
  /** Height of the ledger state the request is answered from: the X-Block-Height of its answer. */
  height: number;
  /** Id of that block: the X-Block-Id of the answer. */
  blockId: string;
}

/** One route: its schemas validate the request and generate the OpenAPI document. */
export interface RouteSpec<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType> {
  method: 'get' | 'post';
  /** Router path, e.g. `/guardian/groups/:id`. */
  path: string;
  /**
   * The operation's name in the OpenAPI document, e.g. `listAssets`: unique across the
   * public API, since generated clients and the API reference name it by this. The public
   * document refuses an operation without one.
   */
  operationId?: string;
  summary: string;
  description?: string;
  tags: string[];
  params?: P;
  query?: Q;
  body?: B;
  response: z.ZodType;
  /** Error statuses particular to the route (e.g. 404 for a by-id route), for the OpenAPI document; the ones every route can answer are added there. */
  errors?: number[];
  /**
   * False for answers that seldom repeat (a batch of ids): the platform's caches (the page
   * cache and the gateway's edge) never keep them, since each would only push out pages that
   * are asked again. They are rendered and sent in the one form asked for.
   */
  storable?: false;
  /**
   * Query keys that make the answer read the height itself (expiry flags such as `expired`): an
   * answer to a request that sends one holds for its block only, while every other storable
   * answer holds until a block changes the area's data.
   */
  expiryKeys?: readonly string[];
  /**
   * Set on routes that read records: they take `height`, `blockId` and `minHeight`
   * (docs/behaviour.md section 12) and reach as far back as point reads or lists do.
   */
  history?: HistoryReach;
  /** A paged list's link to the first page of a keyset walk at the newest height, sent with the refusal of a walk that cannot go on. */
  walkStart?(input: RouteInputLocation): string;
  handler(input: RouteInput<z.output<P>, z.output<Q>, z.output<B>>): Promise<unknown>;
}

// Routes of different shapes live in one list.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each route's own types are checked where it is defined
export type AnyRoute = RouteSpec<any, any, any>;

export function defineRoute<
  P extends z.ZodType = z.ZodObject<Record<never, never>>,
  Q extends z.ZodType = z.ZodObject<Record<never, never>>,
  B extends z.ZodType = z.ZodUndefined,
>(spec: RouteSpec<P, Q, B>): AnyRoute {
  return spec;
}

const NO_QUERY = z.strictObject({});

/** A POST body is read as text first: the page cache finds the page by it. */
const readBody: Middleware = async (ctx, next) => {
  ctx.state.requestBodyText = await readBodyText(ctx);
  await next();
};

/**
 * Marks the answer as one the platform's caches may keep, and for how long: the page cache and the
 * gateway read the marks. A read at a past height (asked for, or a walk's) names its own block in its
 * headers, which a cached page would not carry. A page holds until the area's data changes unless it
 * reads the height itself: expiry evaluated at it, or a keyset walk, whose links name the block it reads at.
 */
function markStorable(route: AnyRoute): Middleware {
  const expiryKeys = route.expiryKeys ?? [];
  return async (ctx, next) => {
    const { query } = ctx;
    if (readsAtHead(query, ctx.state.ledgerState as ServedLedgerState)) {
      ctx.set(STORABLE_HEADER, STORABLE);
      const readsHeight = query.cursor !== undefined || expiryKeys.some((key) => query[key] !== undefined);
      if (!readsHeight) ctx.set(VALIDITY_HEADER, UNTIL_DATA_CHANGES);
    }
    await next();
  };
}

function readsAtHead(query: Record<string, string | string[] | undefined>, head: ServedLedgerState): boolean {
  if (query.height !== undefined || query.minHeight !== undefined) return false;
  const walk = typeof query.cursor === 'string' ? decodeCursor(query.cursor)?.at : undefined;
  return walk === undefined || walk.height === head.height;
}

const unknownMethod: Middleware = () => {
  throw new ApiError(404, 'Not Found');
};

/**
 * A path a route names word for word (`/auctions/search`) is never read as another route's
 * parameter (`/auctions/:id`): asked with a method it has no route for, it answers as any
 * unknown method does, 404. Registered first, so it comes before the parameter's route.
 */
function mountUnknownMethods(router: Router, routes: AnyRoute[]): void {
  const literalPaths = new Set(routes.filter((route) => !route.path.includes(':')).map((route) => route.path));
  for (const path of literalPaths) {
    const methods = new Set(routes.filter((route) => route.path === path).map((route) => route.method));
    for (const method of (['get', 'post'] as const).filter((name) => !methods.has(name))) router[method](path, unknownMethod);
  }
}

/**
 * Registers the routes: the storable mark of a route whose answers may be kept, the page
 * cache (which answers from the cache or sends the rendered page as JSON), then validation
 * of params, query and body, then the handler, which renders the page into `ctx.body`. A
 * page is only ever cached after its request passed validation, so a cache hit skips
 * validating the same request again. Requests reach the routes with `ctx.state.ledgerState` read.
 */
export function mountRoutes(router: Router, routes: AnyRoute[], pageCache: Middleware, history?: HistoryReads): void {
  mountUnknownMethods(router, routes);
  for (const route of routes) {
    const validateRequest: Middleware = async (ctx, next) => {
      const params = route.params ? validate(route.params, ctx.params) : {};
      const query = validate(route.query ?? NO_QUERY, ctx.query);
      const body = route.method === 'post' ? validate(route.body ?? z.null(), parseJsonBody(ctx.state.requestBodyText)) : undefined;
      const location: RequestLocation = { path: ctx.path, queryPairs: [...new URLSearchParams(ctx.querystring)] };
      const { height, blockId } = ctx.state.ledgerState as ServedLedgerState;
      ctx.state.input = { params, query, body, location, height, blockId };
      await next();
    };
    const render: Middleware = async (ctx) => {
      ctx.body = await route.handler(ctx.state.input);
    };
    const caching = route.storable === false ? [pageCache] : [markStorable(route), pageCache];
    const atHeight = route.history ? [readAtHeight(history, route.history, route.walkStart)] : [];
    const steps = [...(route.method === 'post' ? [readBody] : []), ...caching, validateRequest, ...atHeight, render];
    router[route.method](route.path, ...steps);
  }
}
