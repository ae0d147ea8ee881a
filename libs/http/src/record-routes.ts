import { notFound } from '@ledger-api/http-core';
import type { Page } from '@ledger-api/store';
import { z } from 'zod';
import { batchLookupRoute } from './batch-route';
import { transactionIdParams } from './fields';
import { operationText, pagedRecordsRoute, transformOf, type ListQuery, type OperationText, type PageReadInput } from './paged-records-route';
import type { ListConfig, PagingQuery } from './paging';
import { defineRoute, type AnyRoute } from './route';
import { pointReadQuery, transformQuery } from './transform';

/** The routes of one kind of record; `list` and `byId` every kind has. */
export interface RecordOperations {
  /** `GET <path>`: the paged list. */
  list: OperationText;
  /** `GET <path>/:id`: one record, or a 404 that says `notFound`. */
  byId: OperationText & { notFound: string };
  /** `POST <path>/batch`: what the by-id route answers, for many ids at once. */
  batch?: OperationText;
  /** `POST <path>/search`: the list, narrowed by the body. */
  search?: OperationText & { body: z.ZodType };
}

type SearchBody<O extends RecordOperations> = O['search'] extends { body: infer B extends z.ZodType } ? z.output<B> : never;

/** What every record's routes read: records of type `R` in lists, and by id of type `D`, which may carry more. */
export interface RecordRepository<R, D extends R, Q> {
  list(query: Q, height: number): Promise<Page<R>>;
  findById(id: string): Promise<D | null>;
}

/** What the batch route reads: the records of the ids that exist, by id. */
interface BatchReads<D> {
  findByIds(ids: string[]): Promise<ReadonlyMap<string, D>>;
}

/** What the search route reads: the page of the records the body matches. */
interface SearchReads<R, Q, S> {
  search(body: S, query: Q, height: number): Promise<Page<R>>;
}

/** The reads of the routes asked for. */
type ReadsOf<R, D extends R, Q, O extends RecordOperations> = RecordRepository<R, D, Q> &
  (O extends { batch: OperationText } ? BatchReads<D> : unknown) &
  (O extends { search: OperationText } ? SearchReads<R, Q, SearchBody<O>> : unknown);

export interface RecordRoutesSpec<R, D extends R, F extends z.ZodRawShape, O extends RecordOperations> {
  /** Router path of the list, e.g. `/nft/burns`; the other routes are below it. */
  path: string;
  tags: string[];
  list: ListConfig<F>;
  /** A record as lists answer it. */
  item: z.ZodType;
  /** A record as the by-id and batch routes answer it; `item` unless said. */
  detail?: z.ZodType;
  /** The by-id route's path parameters: a transaction id unless said. */
  params?: z.ZodType<{ id: string }>;
  operations: O;
  repository: ReadsOf<R, D, ListQuery<F>, O>;
  /** A record in a list. With `transform` false (where the list takes it), the raw transaction. */
  present(record: R, transform: boolean): unknown;
  /** A record by id (and in a batch); `present` unless said. */
  presentDetail?(record: D, transform: boolean): unknown;
}

/**
 * The spec as the routes read it, blind to the list's own filters: zod cannot
 * resolve a query type through a generic shape, and the routes need only its
 * paging members. The repository gets the whole query the schema let through.
 */
type Spec<R, D extends R> = Omit<RecordRoutesSpec<R, D, Record<never, never>, RecordOperations>, 'repository'> & {
  repository: RecordRepository<R, D, PagingQuery>;
};

/**
 * The routes every kind of ledger record has (docs/design.md: validated input ->
 * repository query -> presenter), named by operation so that the service lists
 * them, among its own routes, in the order of the OpenAPI document's paths.
 */
export function recordRoutes<R, D extends R, F extends z.ZodRawShape, O extends RecordOperations>(
  spec: RecordRoutesSpec<R, D, F, O>,
): { [K in keyof O]-?: AnyRoute } {
  const records = spec as unknown as Spec<R, D>;
  const { batch, search } = records.operations;
  // The spec's type holds a repository with the reads of every route asked for.
  const repository = records.repository as RecordRepository<R, D, PagingQuery> & BatchReads<D> & SearchReads<R, PagingQuery, unknown>;
  const routes: Partial<Record<keyof RecordOperations, AnyRoute>> = { list: listRoute(records), byId: byIdRoute(records) };
  if (batch) routes.batch = batchRoute(records, batch, (ids) => repository.findByIds(ids));
  if (search) routes.search = searchRoute(records, search, (body, query, height) => repository.search(body, query, height));
  return routes as { [K in keyof O]-?: AnyRoute };
}

function listRoute<R, D extends R>({ path, tags, list, item, operations, repository, present }: Spec<R, D>) {
  return pagedRecordsRoute({ path, ...operations.list, tags, list, item, read: ({ query, height }) => repository.list(query, height), present });
}

function searchRoute<R, D extends R>(
  { path, tags, list, item, present }: Spec<R, D>,
  { body, ...text }: OperationText & { body: z.ZodType },
  search: SearchReads<R, PagingQuery, unknown>['search'],
) {
  const read = ({ body: sent, query, height }: PageReadInput<unknown, PagingQuery, unknown>) => search(sent, query, height);
  return pagedRecordsRoute({ method: 'post', path: `${path}/search`, ...text, tags, body, list, item, read, present });
}

function byIdRoute<R, D extends R>(spec: Spec<R, D>) {
  const { path, tags, list, item, detail = item, params = transactionIdParams, operations, repository } = spec;
  const present = detailPresenter(spec);
  return defineRoute({
    method: 'get',
    path: `${path}/:id`,
    ...operationText(operations.byId),
    tags,
    params,
    // Only records built from a transaction can be answered raw.
    query: list.transform ? transformQuery : pointReadQuery,
    history: 'point',
    response: z.object({ data: detail }),
    errors: [404],
    async handler({ params: { id }, query }) {
      const record = await repository.findById(id);
      if (!record) throw notFound(operations.byId.notFound);
      return { data: present(record, transformOf(query as { transform?: boolean })) };
    },
  });
}

function batchRoute<R, D extends R>(spec: Spec<R, D>, text: OperationText, findByIds: BatchReads<D>['findByIds']) {
  const present = detailPresenter(spec);
  return batchLookupRoute({
    path: `${spec.path}/batch`,
    byIdPath: `${spec.path}/{id}`,
    ...operationText(text),
    tags: spec.tags,
    item: spec.detail ?? spec.item,
    find: findByIds,
    present: (record, query) => present(record, query.transform),
  });
}

function detailPresenter<R, D extends R>({ present, presentDetail }: Spec<R, D>) {
  return presentDetail ?? ((record: D, transform: boolean) => present(record, transform));
}

export interface SubresourceSpec<T> extends OperationText {
  /** Router path below a record's, e.g. `/nft/assets/:id/wallets`. */
  path: string;
  tags: string[];
  /** The record's path parameters: a transaction id unless said. */
  params?: z.ZodType<{ id: string }>;
  /** What the answer's `data` holds. */
  data: z.ZodType;
  /** The subresource of the record with the id, as answered; null where there is none, which answers 404 with `notFound`. */
  find(id: string): Promise<T | null>;
  notFound: string;
}

/** `GET <record>/:id/<part>`: what one record leads to (its owner's wallet, its members), or a 404. */
export function subresourceRoute<T>({ path, tags, params = transactionIdParams, data, find, notFound: message, ...text }: SubresourceSpec<T>) {
  return defineRoute({
    method: 'get',
    path,
    ...operationText(text),
    tags,
    params,
    query: pointReadQuery,
    history: 'point',
    response: z.object({ data }),
    errors: [404],
    async handler({ params: { id } }) {
      const found = await find(id);
      if (found === null) throw notFound(message);
      return { data: found };
    },
  });
}
