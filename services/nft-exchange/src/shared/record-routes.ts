import { defineRoute, listQuerySchema, notFound, pagedEnvelope, pagedResponse, type ListConfig, type PagingQuery } from '@ledger-api/http';
import { presentRecord, rawTransactionResource, transactionIdParams, transformQuery, type LedgerRecord, type Page } from '@ledger-api/nft-model';
import { z } from 'zod';

/**
 * Route builders for the shapes every exchange resource shares: a paged list,
 * a search and a by-id lookup, each answering the resource shape or, with
 * transform=false, the raw ledger transaction. The resource's repository
 * finds the records and its presenter shapes them.
 */
interface RecordRouteSpec<T extends LedgerRecord, R extends z.ZodType> {
  path: string;
  summary: string;
  description?: string;
  tags: string[];
  resource: R;
  present(doc: T): z.infer<R>;
}

/** `Q` is the query listQuerySchema(config) validates: paging, orderBy, transform and the config's filters. */
interface RecordListSpec<T extends LedgerRecord, R extends z.ZodType, Q extends PagingQuery> extends RecordRouteSpec<T, R> {
  config: ListConfig;
  page(query: Q): Promise<Page<T>>;
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

const resourceOrTransaction = (resource: z.ZodType) => z.union([resource, rawTransactionResource]);

function presentPage<T extends LedgerRecord, R extends z.ZodType>(spec: RecordRouteSpec<T, R>, page: Page<T>, transform = true) {
  return page.items.map((doc) => presentRecord(doc, transform, spec.present));
}

export function recordListRoute<T extends LedgerRecord, R extends z.ZodType, Q extends PagingQuery>(spec: RecordListSpec<T, R, Q>) {
  const { path, summary, description, tags, config } = spec;
  return defineRoute({
    method: 'get',
    path,
    summary,
    description,
    tags,
    query: pagedQuery<Q>(config),
    response: pagedResponse(resourceOrTransaction(spec.resource)),
    async handler({ query, location }) {
      const page = await spec.page(query);
      return pagedEnvelope(location, config, query, presentPage(spec, page, query.transform), page.totalCount);
    },
  });
}

export function recordSearchRoute<T extends LedgerRecord, R extends z.ZodType, Q extends PagingQuery, B extends z.ZodType>(
  spec: RecordSearchSpec<T, R, Q, B>,
) {
  const { path, summary, description, tags, config, body } = spec;
  return defineRoute({
    method: 'post',
    path,
    summary,
    description,
    tags,
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
  const { path, summary, description, tags } = spec;
  return defineRoute({
    method: 'get',
    path,
    summary,
    description,
    tags,
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
