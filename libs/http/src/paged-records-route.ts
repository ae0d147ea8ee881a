import { notFound } from '@ledger-api/http-core';
import type { Page } from '@ledger-api/store';
import type { z } from 'zod';
import { firstCursorLink, listQuerySchema, pagedEnvelope, pagedResponse, type ListConfig, type PagingQuery } from './paging';
import { defineRoute, type AnyRoute } from './route';

/** How an operation reads in the OpenAPI document. */
export interface OperationText {
  operationId: string;
  summary: string;
  description?: string;
}

/** The validated query of a list with the filters `F`. */
export type ListQuery<F extends z.ZodRawShape> = z.output<ReturnType<typeof listQuerySchema<F>>>;

/** What a paged route reads its page with: the validated request, and the ledger height it is answered at. */
export interface PageReadInput<P, Q, B> {
  params: P;
  query: Q;
  body: B;
  height: number;
}

export interface PagedRecordsSpec<R, F extends z.ZodRawShape, PS extends z.ZodType, BS extends z.ZodType> extends OperationText {
  /** `post` for a search, which takes a body. */
  method?: 'get' | 'post';
  /** Router path, e.g. `/nft/assets/wallet/:id`. */
  path: string;
  tags: string[];
  params?: PS;
  body?: BS;
  list: ListConfig<F>;
  /** A record as the list answers it. */
  item: z.ZodType;
  /** The page; null where what the path names does not exist, which answers 404 with `notFound`. */
  read(input: PageReadInput<z.output<PS>, ListQuery<F>, z.output<BS>>): Promise<Page<R> | null>;
  notFound?: string;
  /** A record in the page. With `transform` false (where the list takes it), the raw transaction. */
  present(record: R, transform: boolean): unknown;
}

/**
 * The spec as the route reads it, blind to the list's own filters: zod cannot
 * resolve a query type through a generic shape, and the route needs only its
 * paging members. `read` gets the whole query the schema let through.
 */
type AnyPagedSpec<R> = Omit<PagedRecordsSpec<R, Record<never, never>, z.ZodType, z.ZodType>, 'read'> & {
  read(input: PageReadInput<unknown, PagingQuery, unknown>): Promise<Page<R> | null>;
};

/** A paged list or search of records: validated input -> the page read -> each record presented. */
export function pagedRecordsRoute<
  R,
  F extends z.ZodRawShape,
  PS extends z.ZodType = z.ZodObject<Record<never, never>>,
  BS extends z.ZodType = z.ZodUndefined,
>(spec: PagedRecordsSpec<R, F, PS, BS>): AnyRoute {
  const { method = 'get', path, tags, params, body, list, item, read, notFound: missing, present, ...text } = spec as unknown as AnyPagedSpec<R>;
  return defineRoute({
    method,
    path,
    ...operationText(text),
    tags,
    ...(params && { params }),
    query: listQuerySchema(list),
    history: 'list',
    ...(list.expiryKeys && { expiryKeys: list.expiryKeys }),
    walkStart: ({ location, query }) => firstCursorLink(location, list, query.limit),
    ...(body && { body }),
    response: pagedResponse(item),
    ...(missing !== undefined && { errors: [404] }),
    async handler({ params: sentParams, query, body: sentBody, location, height, blockId }) {
      const page = await read({ params: sentParams, query, body: sentBody, height });
      if (!page) throw notFound(missing);
      const data = page.items.map((record) => present(record, transformOf(query)));
      return pagedEnvelope(location, list, query, page, data, { height, blockId });
    },
  });
}

/** Whether a query asks for resource shapes: always, where the route takes no `transform`. */
export const transformOf = (query: { transform?: boolean }) => query.transform ?? true;

/** The operation's OpenAPI text, without the keys it leaves out (an absent description stays absent). */
export function operationText({ operationId, summary, description }: OperationText) {
  return { operationId, summary, ...(description !== undefined && { description }) };
}
