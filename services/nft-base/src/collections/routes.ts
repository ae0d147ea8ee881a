import { defineRoute, notFound, recordRoutes, subresourceRoute, transactionByIdShape } from '@ledger-api/http';
import { baseWalletResource, recordPresenter, resourceOrTransaction } from '@ledger-api/nft-read-model';
import type { Store } from '@ledger-api/store';
import { presentCollection, presentCollectionSchema } from './presenter';
import { collectionsList } from './query-config';
import { collectionsRepository } from './repository';
import { collectionResource, collectionSchemaResource, collectionSearchBody } from './schema';

const TAGS = ['NFT collections'];
const COLLECTION_NOT_FOUND = 'Collection not found';
const SEARCH_RULE =
  'Collections containing the body: objects match by the given keys (extra keys allowed), arrays by the given elements, scalars by equality. `{}` matches all.';

type CollectionsRepository = ReturnType<typeof collectionsRepository>;

export function collectionRoutes(store: Store) {
  const repository = collectionsRepository(store);
  const { list, search, byId, batch } = recordRoutes({
    path: '/nft/collections',
    tags: TAGS,
    list: collectionsList,
    item: resourceOrTransaction(collectionResource),
    repository,
    present: recordPresenter(presentCollection),
    operations: {
      list: { operationId: 'listCollections', summary: 'List NFT collections' },
      search: { operationId: 'searchCollections', summary: 'Search NFT collections', description: SEARCH_RULE, body: collectionSearchBody },
      byId: { operationId: 'getCollection', summary: 'Get an NFT collection', notFound: COLLECTION_NOT_FOUND },
      batch: { operationId: 'batchGetCollections', summary: 'Get NFT collections by their ids' },
    },
  });
  return [list, search, byId, batch, ...collectionSubresourceRoutes(repository)];
}

function collectionSubresourceRoutes(repository: CollectionsRepository) {
  const presentSchema = recordPresenter(presentCollectionSchema);
  return [
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
        return { data: presentSchema(collection, query.transform) };
      },
    }),
    subresourceRoute({
      path: '/nft/collections/:id/wallets',
      operationId: 'getCollectionWallet',
      summary: 'Get the wallet that registered an NFT collection',
      tags: TAGS,
      data: baseWalletResource,
      find: (id) => repository.registrantWallet(id),
      notFound: COLLECTION_NOT_FOUND,
    }),
  ];
}
