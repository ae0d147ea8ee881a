import { createHash } from 'node:crypto';
import type Router from '@koa/router';
import type { Context } from 'koa';
import { z } from 'zod';
import { readJsonBody } from './body';
import type { RequestLocation } from './paging';
import { validate } from './validation';

export interface RouteInput<P, Q, B> {
  params: P;
  query: Q;
  body: B;
  location: RequestLocation;
}

/** One route: its schemas validate the request and generate the OpenAPI document. */
export interface RouteSpec<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType> {
  method: 'get' | 'post';
  /** Router path, e.g. `/guardian/groups/:id`. */
  path: string;
  summary: string;
  description?: string;
  tags: string[];
  params?: P;
  query?: Q;
  body?: B;
  response: z.ZodType;
  /** Error statuses the route can answer besides 422, for the OpenAPI document. */
  errors?: number[];
  handler(input: RouteInput<z.output<P>, z.output<Q>, z.output<B>>): Promise<unknown>;
}

// eslint-style escape hatch: routes of different shapes live in one list.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyRoute = RouteSpec<any, any, any>;

export function defineRoute<
  P extends z.ZodType = z.ZodObject<{}>,
  Q extends z.ZodType = z.ZodObject<{}>,
  B extends z.ZodType = z.ZodUndefined,
>(spec: RouteSpec<P, Q, B>): AnyRoute {
  return spec;
}

/** What caching needs: a string store keyed by the ledger generation. */
export interface PageCacheLike {
  get(key: string): Promise<string | null>;
  set(key: string, value: string): Promise<void>;
}

export interface LedgerState {
  /** Height of the last block the answering service applied (X-Block-Height). */
  height: number;
  /** Changes with every applied or reverted block; part of every cache key. */
  generation: string;
}

export interface RouteDeps {
  area: string;
  ledgerState(): Promise<LedgerState>;
  cache?: PageCacheLike;
}

const NO_QUERY = z.strictObject({});

/** Registers the routes: validate params, then query, then body; answer from the page cache when possible. */
export function mountRoutes(router: Router, routes: AnyRoute[], deps: RouteDeps): void {
  for (const route of routes) {
    router[route.method](route.path, async (ctx: Context) => {
      const params = route.params ? validate(route.params, ctx.params) : {};
      const query = validate(route.query ?? NO_QUERY, ctx.query);
      const body = route.method === 'post' ? validate(route.body ?? z.null(), await readJsonBody(ctx)) : undefined;
      const location: RequestLocation = { path: ctx.path, queryPairs: [...new URLSearchParams(ctx.querystring)] };
      const render = async () => JSON.stringify(await route.handler({ params, query, body, location }));
      const cacheKey = `${ctx.method} ${ctx.path}?${ctx.querystring} ${body === undefined ? '' : JSON.stringify(body)}`;
      sendJson(ctx, await cachedRender(deps, ctx.state.ledger as LedgerState, cacheKey, render));
    });
  }
}

async function cachedRender(deps: RouteDeps, before: LedgerState, request: string, render: () => Promise<string>): Promise<string> {
  if (!deps.cache) return render();
  const key = `${deps.area}:${createHash('sha1').update(`${before.generation} ${request}`).digest('base64url')}`;
  const hit = await deps.cache.get(key);
  if (hit !== null) return hit;
  const text = await render();
  // A block applied while the page was read would make it a mix of two ledger
  // states; such a page is served once but never cached under either.
  const after = await deps.ledgerState();
  if (after.generation === before.generation) await deps.cache.set(key, text);
  return text;
}

function sendJson(ctx: Context, text: string): void {
  ctx.type = 'application/json; charset=utf-8';
  ctx.set('Cache-Control', ctx.method === 'POST' ? 'no-store' : 'no-cache');
  ctx.etag = createHash('sha1').update(text).digest('base64url');
  ctx.status = 200;
  if (ctx.method !== 'POST' && ctx.fresh) {
    ctx.status = 304;
    return;
  }
  ctx.body = text;
}
