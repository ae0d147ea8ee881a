import type Router from '@koa/router';
import type { Middleware } from 'koa';
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

/**
 * Registers the routes: validate params, then query, then body; then `pageMiddleware`
 * (the page cache, which sends the page as JSON); then the handler renders the page into `ctx.body`.
 */
export function mountRoutes(router: Router, routes: AnyRoute[], ...pageMiddleware: Middleware[]): void {
  for (const route of routes) {
    const validateRequest: Middleware = async (ctx, next) => {
      const params = route.params ? validate(route.params, ctx.params) : {};
      const query = validate(route.query ?? NO_QUERY, ctx.query);
      const body = route.method === 'post' ? validate(route.body ?? z.null(), await readJsonBody(ctx)) : undefined;
      const location: RequestLocation = { path: ctx.path, queryPairs: [...new URLSearchParams(ctx.querystring)] };
      ctx.state.requestBody = body;
      ctx.state.input = { params, query, body, location };
      await next();
    };
    const render: Middleware = async (ctx) => {
      ctx.body = await route.handler(ctx.state.input);
    };
    router[route.method](route.path, validateRequest, ...pageMiddleware, render);
  }
}
