import { stringify } from 'node:querystring';
import { z } from 'zod';
import { integerParam } from './fields';
import { orderByParam, type OrderBy } from './order-by';
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
  defaultOrder: Record<string, 1 | -1>;
  /** Whether the route takes `transform`: routes over ledger records can answer the raw transactions instead. */
  transform: boolean;
  /** Defaults shown in links when the client did not send them, in link order (after transform). */
  linkFlags?: Record<string, string>;
  /** `meta.totalCountIsEstimate`: whether clients are told the total may be an estimate. */
  totalCountIsEstimate: boolean;
}

/** A validated list query: what listQuerySchema outputs besides the route's own filters. */
export interface PagingQuery {
  page: number;
  limit: number;
  offset?: number;
  orderBy?: OrderBy;
  transform?: boolean;
}

type PagingShape = {
  page: ReturnType<typeof integerParam>;
  limit: ReturnType<typeof integerParam>;
  offset: z.ZodOptional<ReturnType<typeof integerParam>>;
  // Present only where the route declares orderable fields / takes transform;
  // typed as always there so handlers read one query type.
  orderBy: z.ZodOptional<ReturnType<typeof orderByParam>>;
  transform: ReturnType<typeof transformParam>;
};

export function listQuerySchema<F extends z.ZodRawShape>(config: ListConfig<F>) {
  const shape = {
    page: integerParam({ positive: true }).default(1),
    limit: integerParam({ min: 1, max: MAX_LIMIT }).default(MAX_LIMIT),
    offset: integerParam({ min: 0 }).optional(),
    ...(Object.keys(config.orderable).length > 0 && { orderBy: orderByParam(config.orderable).optional() }),
    ...(config.transform && { transform: transformParam() }),
    ...config.filters,
  } as unknown as PagingShape & F;
  return z.strictObject(shape);
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

function linkBuilder(location: RequestLocation, config: ListConfig, limit: number) {
  const query: Record<string, string> = {};
  for (const [key, value] of location.queryPairs) if (!(key in query)) query[key] = value;
  const defaults: Record<string, string> = {
    ...(config.transform ? { transform: 'true' } : {}),
    ...config.linkFlags,
    page: '1',
    limit: String(limit),
  };
  for (const [key, value] of Object.entries(defaults)) if (!(key in query)) query[key] = value;
  return (page: number) => `${location.path}?${stringify({ ...query, page: String(page) })}`;
}

/** The paged envelope of api-behaviour.md section 3. */
export function pagedEnvelope<T>(location: RequestLocation, config: ListConfig, query: PagingQuery, data: T[], totalCount: number): Paged<T> {
  const { page, limit } = query;
  const pageCount = Math.max(1, Math.ceil(totalCount / limit));
  const link = linkBuilder(location, config, limit);
  return {
    meta: {
      totalCountIsEstimate: config.totalCountIsEstimate,
      count: data.length,
      pageCount,
      totalCount,
      next: page < pageCount ? link(page + 1) : null,
      previous: totalCount > 0 && page > 1 && page <= pageCount + 1 ? link(page - 1) : null,
      self: link(page),
      first: link(1),
      last: link(pageCount),
    },
    data,
  };
}

/** The OpenAPI/zod shape of a paged response around an item schema. */
export function pagedResponse<T extends z.ZodType>(item: T) {
  const link = z.string();
  return z.object({
    meta: z.object({
      totalCountIsEstimate: z.boolean(),
      count: z.number().int(),
      pageCount: z.number().int(),
      totalCount: z.number().int(),
      next: link.nullable(),
      previous: link.nullable(),
      self: link,
      first: link,
      last: link,
    }),
    data: z.array(item),
  });
}
