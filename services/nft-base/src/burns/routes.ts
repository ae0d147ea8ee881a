import { defineRoute, listQuerySchema, notFound, pagedEnvelope, pagedResponse } from '@ledger-api/http';
import { presentRecord, rawTransactionResource, transactionIdParams, transformQuery } from '@ledger-api/nft-model';
import type { Store } from '@ledger-api/store';
import { z } from 'zod';
import { presentBurn } from './presenter';
import { burnsList } from './query-config';
import { burnsRepository } from './repository';
import { burnResource } from './schema';

const TAGS = ['NFT burns'];
const burnOrRaw = z.union([burnResource, rawTransactionResource]);

export function burnRoutes(store: Store) {
  const repository = burnsRepository(store);
  return [
    defineRoute({
      method: 'get',
      path: '/nft/burns',
      summary: 'List NFT burns',
      tags: TAGS,
      query: listQuerySchema(burnsList),
      response: pagedResponse(burnOrRaw),
      async handler({ query, location }) {
        const { items, totalCount } = await repository.list(query);
        return pagedEnvelope(location, burnsList, query, items.map((doc) => presentRecord(doc, query.transform, presentBurn)), totalCount);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/nft/burns/:id',
      summary: 'Get an NFT burn',
      tags: TAGS,
      params: transactionIdParams,
      query: transformQuery,
      response: z.object({ data: burnOrRaw }),
      errors: [404],
      async handler({ params, query }) {
        const burn = await repository.findById(params.id);
        if (!burn) throw notFound('Burn not found');
        return { data: presentRecord(burn, query.transform, presentBurn) };
      },
    }),
  ];
}
