import { batchLookupRoute, defineRoute, notFound, pagedEnvelope, pagedListShape, transactionByIdShape, transactionIdParams } from '@ledger-api/http';
import { baseWalletResource, presentRecord, presentRecords, resourceOrTransaction } from '@ledger-api/nft-read-model';
import type { Store } from '@ledger-api/store';
import { z } from 'zod';
import { presentCollection, presentCollectionSchema } from './presenter';
import { collectionsList } from './query-config';
import { collectionsRepository } from './repository';
import { collectionResource, collectionSchemaResource, collectionSearchBody } from './schema';

const TAGS = ['NFT collections'];
const COLLECTION_NOT_FOUND = 'Collection not found';
const collectionOrTransaction = resourceOrTransaction(collectionResource);

type CollectionsRepository = ReturnType<typeof collectionsRepository>;

export function collectionRoutes(store: Store) {
  const repository = collectionsRepository(store);
  return [...collectionListRoutes(repository), ...singleCollectionRoutes(repository)];
}

function collectionListRoutes(repository: CollectionsRepository) {
  return [
    defineRoute({
      method: 'get',
      path: '/nft/collections',
      operationId: 'listCollections',
      summary: 'List NFT collections',
      tags: TAGS,
      ...pagedListShape(collectionsList, collectionOrTransaction),
      async handler({ query, location }) {
        const page = await repository.list(query);
        const data = presentRecords(page.items, query.transform, presentCollection);
        return pagedEnvelope(location, collectionsList, query, page, data);
      },
    }),
    defineRoute({
      method: 'post',
      path: '/nft/collections/search',
      operationId: 'searchCollections',
      summary: 'Search NFT collections',
      description:
        'Collections containing the body: objects match by the given keys (extra keys allowed), arrays by the given elements, scalars by equality. `{}` matches all.',
      tags: TAGS,
      ...pagedListShape(collectionsList, collectionOrTransaction),
      body: collectionSearchBody,
      async handler({ query, body, location }) {
        const page = await repository.search(body, query);
        const data = presentRecords(page.items, query.transform, presentCollection);
        return pagedEnvelope(location, collectionsList, query, page, data);
      },
    }),
  ];
}

function singleCollectionRoutes(repository: CollectionsRepository) {
  return [
    defineRoute({
      method: 'get',
      path: '/nft/collections/:id',
      operationId: 'getCollection',
      summary: 'Get an NFT collection',
      tags: TAGS,
      ...transactionByIdShape(collectionOrTransaction),
      async handler({ params, query }) {
        const collection = await repository.findById(params.id);
        if (!collection) throw notFound(COLLECTION_NOT_FOUND);
        return { data: presentRecord(collection, query.transform, presentCollection) };
      },
    }),
    batchLookupRoute({
      path: '/nft/collections/batch',
      byIdPath: '/nft/collections/{id}',
      operationId: 'batchGetCollections',
      summary: 'Get NFT collections by their ids',
      tags: TAGS,
      item: collectionOrTransaction,
      find: (ids) => repository.findByIds(ids),
      present: (collection, query) => presentRecord(collection, query.transform, presentCollection),
    }),
    defineRoute({
      method: 'get',
      path: '/nft/collections/:id/schema',
      operationId: 'getCollectionSchema',
      summary: "Get an NFT collection's JSON schema",
      tags: TAGS,
      ...transactionByIdShape(resourceOrTransaction(collectionSchemaResource)),
      async handler({ params, query }) {
        const collection = await repository.findById(params.id);
        if (!collection) throw notFound(COLLECTION_NOT_FOUND);
        return { data: presentRecord(collection, query.transform, presentCollectionSchema) };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/nft/collections/:id/wallets',
      operationId: 'getCollectionWallet',
      summary: 'Get the wallet that registered an NFT collection',
      tags: TAGS,
      params: transactionIdParams,
      response: z.object({ data: baseWalletResource }),
      errors: [404],
      async handler({ params }) {
        const wallet = await repository.registrantWallet(params.id);
        if (!wallet) throw notFound(COLLECTION_NOT_FOUND);
        return { data: wallet };
      },
    }),
  ];
}
