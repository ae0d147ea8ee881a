import { stringify } from 'node:querystring';
import { listSort, type FieldOrder, type KeysetPosition, type Page, type Sort } from '@ledger-api/store';
import { z } from 'zod';
import { cursorParam, cursorRules, encodeCursor, type CursorQuery, type CursorToken, type WalkBlock } from './cursor';
import { integerParam } from './fields';
import { historyQueryShape, historyRules } from './history-query';
import { orderByParam } from './order-by';
import { transformParam } from './transform';

export const MAX_LIMIT = 100;

/**
 * Everything a list route declares in one place: its filters, which fields it
 * orders by (API name -> stored field), its default order (also the tie-breaker),
 * and the defaulted keys its paging links carry.
 */
export interface ListConfig<F extends z.ZodRawShape = z.ZodRawShape> {
  /** Route-specific query filters and flags. */
  filters: F;
  /** API field name -> stored document field; empty when the route takes no orderBy. */
  orderable: Record<string, string>;
  /** Stored fields giving the default order; appended to every sort so ties are stable. */
  defaultOrder: Sort;
  /** Whether the route takes `transform`: routes over ledger records can answer the raw transactions instead. */
  transform: boolean;
  /** Defaults shown in links when the client did not send them, in link order (after transform). */
  linkFlags?: Record<string, string>;
  /** Filters evaluated at the height the answer is read at (expiry flags): see RouteSpec.expiryKeys. */
  expiryKeys?: readonly string[];
  /** `meta.totalCountIsEstimate`: whether clients are told the total may be an estimate. */
  totalCountIsEstimate: boolean;
}

/** A validated list query: what listQuerySchema outputs besides the route's own filters. */
export interface PagingQuery {
  page: number;
  limit: number;
  offset?: number;
  /** Keyset paging instead of page numbers. */
  cursor?: CursorToken;
  orderBy?: FieldOrder;
  transform?: boolean;
}

type PagingShape = {
  // Optional in the schema, so the cursor rules see whether it was sent; the schema fills in the default after them.
  page: ReturnType<typeof integerParam>;
  limit: ReturnType<typeof integerParam>;
  offset: z.ZodOptional<ReturnType<typeof integerParam>>;
  cursor: z.ZodOptional<ReturnType<typeof cursorParam>>;
  // Present only where the route declares orderable fields / takes transform;
  // typed as always there so handlers read one query type.
  orderBy: z.ZodOptional<ReturnType<typeof orderByParam>>;
  transform: ReturnType<typeof transformParam>;
};

const DEFAULT_PAGE = 1;

export function listQuerySchema<F extends z.ZodRawShape>(config: ListConfig<F>) {
  const shape = {
    page: integerParam({ positive: true }).optional().meta({ default: DEFAULT_PAGE }),
    limit: integerParam({ min: 1, max: MAX_LIMIT }).default(MAX_LIMIT),
    offset: integerParam({ min: 0 }).optional(),
    cursor: cursorParam().optional(),
    ...(Object.keys(config.orderable).length > 0 && { orderBy: orderByParam(config.orderable).optional() }),
    ...(config.transform && { transform: transformParam() }),
    ...config.filters,
    ...historyQueryShape,
  } as unknown as PagingShape & F;
  return withCursorRules(z.strictObject(shape), config.defaultOrder);
}

/**
 * The cursor rules on a list query schema, then the page default they need
 * to see absent. Checks keep the schema an object schema, which the OpenAPI
 * document lists parameter by parameter.
 */
function withCursorRules<S extends z.ZodObject>(schema: S, defaultOrder: ListConfig['defaultOrder']): S {
  const rules = cursorRules(defaultOrder);
  // Typed on the members the rules read: the route's own filters make the full output type generic here.
  const query: z.ZodObject = schema;
  return query
    .superRefine((value, ctx) => {
      rules(value as CursorQuery, ctx);
      historyRules(value, ctx);
    })
    .overwrite((value) => ({ ...value, page: value.page ?? DEFAULT_PAGE })) as S;
}

/** The request as the client sent it, which paging links reproduce. */
export interface RequestLocation {
  path: string;
  queryPairs: Array<[string, string]>;
}

export interface PageMeta {
  totalCountIsEstimate: boolean;
  count: number;
  pageCount: number;
  totalCount: number;
  next: string | null;
  previous: string | null;
  self: string;
  first: string;
  last: string;
}

export interface Paged<T> {
  meta: PageMeta;
  data: T[];
}

/**
 * Links to pages of the list: the keys the client sent, in the order and with
 * the values sent, then the defaults it did not send (`page` only where pages
 * are numbered), with `target` (`page` or `cursor`) set to the page's value.
 */
function linkBuilder(location: RequestLocation, config: ListConfig, limit: number, target: 'page' | 'cursor') {
  const query: Record<string, string> = {};
  for (const [key, value] of location.queryPairs) if (!(key in query)) query[key] = value;
  const defaults: Record<string, string> = {
    ...(config.transform ? { transform: 'true' } : {}),
    ...config.linkFlags,
    ...(target === 'page' && { page: String(DEFAULT_PAGE) }),
    limit: String(limit),
  };
  for (const [key, value] of Object.entries(defaults)) if (!(key in query)) query[key] = value;
  return (value: string) => `${location.path}?${stringify({ ...query, [target]: value })}`;
}

/** What the envelope needs of a list read: the count of all matches and, for a keyset read, the pages beside it. */
export type ListPage = Pick<Page<unknown>, 'totalCount' | 'adjacent'>;

type PageLinks = Pick<PageMeta, 'next' | 'previous' | 'self' | 'first' | 'last'>;

function numberedPageLinks(location: RequestLocation, config: ListConfig, query: PagingQuery, totalCount: number, pageCount: number): PageLinks {
  const { page, limit } = query;
  const link = linkBuilder(location, config, limit, 'page');
  return {
    next: page < pageCount ? link(String(page + 1)) : null,
    previous: totalCount > 0 && page > 1 && page <= pageCount + 1 ? link(String(page - 1)) : null,
    self: link(String(page)),
    first: link(String(DEFAULT_PAGE)),
    last: link(String(pageCount)),
  };
}

/** Links of a keyset read: `self` as sent, `first` the empty cursor, the others tokens of the positions the read found. */
function cursorPageLinks(location: RequestLocation, config: ListConfig, query: PagingQuery, page: ListPage, at: WalkBlock): PageLinks {
  if (!page.adjacent) throw new Error('A request with a cursor needs a keyset read, which reports the pages beside it');
  const sort = listSort(query.orderBy, config.defaultOrder);
  const link = linkBuilder(location, config, query.limit, 'cursor');
  const linkTo = (position: KeysetPosition | null) => position && link(encodeCursor(position, sort, at));
  const sent = location.queryPairs.find(([key]) => key === 'cursor')?.[1] ?? '';
  return {
    next: linkTo(page.adjacent.next),
    previous: linkTo(page.adjacent.previous),
    self: link(sent),
    first: link(''),
    last: link(encodeCursor({ kind: 'last' }, sort, at)),
  };
}

/** The link to the first page of a keyset walk: the request's keys with an empty cursor, at the newest height where it took none. */
export function firstCursorLink(location: RequestLocation, config: ListConfig, limit: number): string {
  return linkBuilder(location, config, limit, 'cursor')('');
}

/**
 * The paged envelope of docs/behaviour.md section 3, with the links of keyset paging when the request has a cursor;
 * their tokens hold the walk at `at`, the block the page was read at.
 */
export function pagedEnvelope<T>(
  location: RequestLocation,
  config: ListConfig,
  query: PagingQuery,
  page: ListPage,
  data: T[],
  at: WalkBlock,
): Paged<T> {
  const { totalCount } = page;
  const pageCount = Math.max(1, Math.ceil(totalCount / query.limit));
  const links = query.cursor ? cursorPageLinks(location, config, query, page, at) : numberedPageLinks(location, config, query, totalCount, pageCount);
  return { meta: { totalCountIsEstimate: config.totalCountIsEstimate, count: data.length, pageCount, totalCount, ...links }, data };
}

/** The OpenAPI/zod shape of a paged response around an item schema. */
export function pagedResponse<T extends z.ZodType>(item: T) {
  const link = z.string();
  return z.object({
    meta: z
      .object({
        totalCountIsEstimate: z.boolean(),
        count: z.number().int(),
        pageCount: z.number().int(),
        totalCount: z.number().int(),
        next: link.nullable(),
        previous: link.nullable(),
        self: link,
        first: link,
        last: link,
      })
      .meta({ id: 'PageMeta', description: 'The counts of a page and the links to its neighbours: paths without `/api`, with the effective query' }),
    data: z.array(item),
  });
}
