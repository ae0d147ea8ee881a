import { defineRoute, notFound, pagedEnvelope, pagedListShape, transactionByIdShape } from '@ledger-api/http';
import { presentRecord, presentRecords, resourceOrTransaction } from '@ledger-api/nft-read-model';
import type { Store } from '@ledger-api/store';
import { presentBurn } from './presenter';
import { burnsList } from './query-config';
import { burnsRepository } from './repository';
import { burnResource } from './schema';

const TAGS = ['NFT burns'];
const burnOrTransaction = resourceOrTransaction(burnResource);

export function burnRoutes(store: Store) {
  const repository = burnsRepository(store);
  return [
    defineRoute({
      method: 'get',
      path: '/nft/burns',
      summary: 'List NFT burns',
      tags: TAGS,
      ...pagedListShape(burnsList, burnOrTransaction),
      async handler({ query, location }) {
        const { items, totalCount } = await repository.list(query);
        return pagedEnvelope(location, burnsList, query, presentRecords(items, query.transform, presentBurn), totalCount);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/nft/burns/:id',
      summary: 'Get an NFT burn',
      tags: TAGS,
      ...transactionByIdShape(burnOrTransaction),
      async handler({ params, query }) {
        const burn = await repository.findById(params.id);
        if (!burn) throw notFound('Burn not found');
        return { data: presentRecord(burn, query.transform, presentBurn) };
      },
    }),
  ];
}
