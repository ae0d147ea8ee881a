import { z } from 'zod';
import { transactionId } from './fields';
import { defineRoute, type AnyRoute } from './route';
import { transformQuery } from './transform';

/** The most ids one batch lookup takes. */
export const MAX_BATCH_IDS = 100;

/** The body of a batch lookup: 1 to 100 transaction ids in any letter case, repeats allowed; each is looked up lower-cased. */
export const transactionIdsBody = z
  .strictObject({
    ids: z
      .array(transactionId())
      .min(1)
      .max(MAX_BATCH_IDS)
      .meta({ description: `1 to ${MAX_BATCH_IDS} transaction ids (64 hex characters, any letter case); repeats allowed` }),
  })
  .meta({
    id: 'TransactionIds',
    title: 'Transaction ids',
    examples: [
      {
        ids: ['022c72dacc64a52ba4be0f2dd903a5993e6eaa75f5c2df4bf9aef857514a9c4c', '3FFCFDDB50FA7C46BF3E2076C03DFA114C77FE2F519638AD972665662760B8F9'],
      },
    ],
  });

/** The answer of a batch lookup: one entry per requested id, in request order, `null` for an id nothing has. */
export const batchResponse = <I extends z.ZodType>(item: I) =>
  z.object({
    data: z.array(item.nullable()).meta({ description: 'One entry per requested id, in request order; null where nothing has the id' }),
  });

export interface BatchLookupSpec<R> {
  /** Router path, e.g. `/nft/burns/batch`. */
  path: string;
  /** The by-id route whose answers the entries are, as the OpenAPI document writes it: `/nft/burns/{id}`. */
  byIdPath: string;
  operationId: string;
  summary: string;
  /** Said after what every batch lookup answers. */
  description?: string;
  tags: string[];
  /** One entry as the by-id route answers it in `data`. */
  item: z.ZodType;
  /** The records among `ids` (distinct, lower-cased), by id: one repository call, one store query. */
  find(ids: string[]): Promise<ReadonlyMap<string, R>>;
  /** One found record as the by-id route presents it. */
  present(record: R, query: z.output<typeof transformQuery>): unknown;
}

/**
 * `POST <path>` with `{"ids": [...]}` (docs/behaviour.md section 10): the records of
 * the ids read at once, each answered as its by-id route answers it, or null where
 * that route answers 404. The query takes `transform` as the by-id route does.
 */
export function batchLookupRoute<R>({ path, byIdPath, operationId, summary, description, tags, item, find, present }: BatchLookupSpec<R>): AnyRoute {
  const rule = `One entry per requested id, in request order: what GET ${byIdPath} answers as \`data\`, or null where it answers 404. All are read from one ledger state.`;
  return defineRoute({
    method: 'post',
    path,
    operationId,
    summary,
    description: description ? `${rule} ${description}` : rule,
    tags,
    query: transformQuery,
    history: 'point',
    body: transactionIdsBody,
    response: batchResponse(item),
    // Each client asks for its own set of ids.
    storable: false,
    async handler({ query, body }) {
      const found = await find([...new Set(body.ids)]);
      return {
        data: body.ids.map((id) => {
          const record = found.get(id);
          return record === undefined ? null : present(record, query);
        }),
      };
    },
  });
}
