import { defineRoute, listQuerySchema, notFound, pagedEnvelope, pagedResponse, type ListConfig, type Page, type PagingQuery } from '@ledger-api/http';
import { z } from 'zod';
import type { LedgerRecord } from './ledger-record';
import { presentRecord, rawTransactionResource, transactionIdParams, transformQuery } from './resources';

/**
 * Route builders for the shapes NFT and exchange resources share: a paged
 * list, a search and a by-id lookup, each answering the resource shape or,
 * with transform=false, the raw ledger transaction. The resource's repository
 * finds the records and its presenter shapes them.
 */
interface RouteHead {
  path: string;
  summary: string;
  description?: string;
  tags: string[];
}

interface RecordRouteSpec<T extends LedgerRecord, R extends z.ZodType> extends RouteHead {
  resource: R;
  present(doc: T): z.infer<R>;
}

/** `Q` is the query listQuerySchema(config) validates: paging, orderBy, transform and the config's filters. */
interface RecordListSpec<T extends LedgerRecord, R extends z.ZodType, Q extends PagingQuery, P extends z.ZodType> extends RecordRouteSpec<T, R> {
  config: ListConfig;
  /** Path parameters of a list that belongs to another resource, e.g. a wallet's assets. */
  params?: P;
  /** For a list whose owning resource may not exist: `page` answers null for it and the route 404s with this message. */
  notFoundMessage?: string;
  page(query: Q, params: z.output<P>): Promise<Page<T> | null>;
}

interface RecordSearchSpec<T extends LedgerRecord, R extends z.ZodType, Q extends PagingQuery, B extends z.ZodType> extends RecordRouteSpec<T, R> {
  config: ListConfig;
  body: B;
  search(body: z.output<B>, query: Q): Promise<Page<T>>;
}

interface RecordByIdSpec<T extends LedgerRecord, R extends z.ZodType> extends RecordRouteSpec<T, R> {
  notFoundMessage: string;
  find(id: string): Promise<T | null>;
}

/** listQuerySchema(config) validates exactly a Q; its static type is lost once the config is not generic. */
const pagedQuery = <Q extends PagingQuery>(config: ListConfig) => listQuerySchema(config) as unknown as z.ZodType<Q>;

/** Only the head of a spec: defineRoute must not receive the builders' own members. */
const routeHead = ({ path, summary, description, tags }: RouteHead): RouteHead => ({ path, summary, description, tags });

const resourceOrTransaction = (resource: z.ZodType) => z.union([resource, rawTransactionResource]);

function presentPage<T extends LedgerRecord, R extends z.ZodType>(spec: RecordRouteSpec<T, R>, page: Page<T>, transform = true) {
  return page.items.map((doc) => presentRecord(doc, transform, spec.present));
}

export function recordListRoute<T extends LedgerRecord, R extends z.ZodType, Q extends PagingQuery, P extends z.ZodType>(spec: RecordListSpec<T, R, Q, P>) {
  const { config, params, notFoundMessage } = spec;
  return defineRoute({
    method: 'get',
    ...routeHead(spec),
    params,
    query: pagedQuery<Q>(config),
    response: pagedResponse(resourceOrTransaction(spec.resource)),
    ...(notFoundMessage !== undefined && { errors: [404] }),
    async handler({ params: pathParams, query, location }) {
      const page = await spec.page(query, pathParams);
      if (!page) throw notFound(notFoundMessage);
      return pagedEnvelope(location, config, query, presentPage(spec, page, query.transform), page.totalCount);
    },
  });
}

export function recordSearchRoute<T extends LedgerRecord, R extends z.ZodType, Q extends PagingQuery, B extends z.ZodType>(
  spec: RecordSearchSpec<T, R, Q, B>,
) {
  const { config, body } = spec;
  return defineRoute({
    method: 'post',
    ...routeHead(spec),
    query: pagedQuery<Q>(config),
    body,
    response: pagedResponse(resourceOrTransaction(spec.resource)),
    async handler({ query, body: search, location }) {
      const page = await spec.search(search, query);
      return pagedEnvelope(location, config, query, presentPage(spec, page, query.transform), page.totalCount);
    },
  });
}

export function recordByIdRoute<T extends LedgerRecord, R extends z.ZodType>(spec: RecordByIdSpec<T, R>) {
  return defineRoute({
    method: 'get',
    ...routeHead(spec),
    params: transactionIdParams,
    query: transformQuery,
    response: z.object({ data: resourceOrTransaction(spec.resource) }),
    errors: [404],
    async handler({ params, query }) {
      const doc = await spec.find(params.id);
      if (!doc) throw notFound(spec.notFoundMessage);
      return { data: presentRecord(doc, query.transform, spec.present) };
    },
  });
}
