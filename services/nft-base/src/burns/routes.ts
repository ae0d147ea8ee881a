import { batchLookupRoute, defineRoute, notFound, pagedEnvelope, pagedListShape, transactionByIdShape } from '@ledger-api/http';
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
      operationId: 'listBurns',
      summary: 'List NFT burns',
      tags: TAGS,
      ...pagedListShape(burnsList, burnOrTransaction),
      async handler({ query, location }) {
        const page = await repository.list(query);
        return pagedEnvelope(location, burnsList, query, page, presentRecords(page.items, query.transform, presentBurn));
      },
    }),
    defineRoute({
      method: 'get',
      path: '/nft/burns/:id',
      operationId: 'getBurn',
      summary: 'Get an NFT burn',
      tags: TAGS,
      ...transactionByIdShape(burnOrTransaction),
      async handler({ params, query }) {
        const burn = await repository.findById(params.id);
        if (!burn) throw notFound('Burn not found');
        return { data: presentRecord(burn, query.transform, presentBurn) };
      },
    }),
    batchLookupRoute({
      path: '/nft/burns/batch',
      byIdPath: '/nft/burns/{id}',
      operationId: 'batchGetBurns',
      summary: 'Get NFT burns by their ids',
      tags: TAGS,
      item: burnOrTransaction,
      find: (ids) => repository.findByIds(ids),
      present: (burn, query) => presentRecord(burn, query.transform, presentBurn),
    }),
  ];
}
