import { defineRoute, notFound } from '@ledger-api/http';
import { baseWalletResource, recordByIdRoute, recordListRoute, recordSearchRoute, transactionIdParams } from '@ledger-api/nft-model';
import type { Store } from '@ledger-api/store';
import { z } from 'zod';
import { presentCollection, presentCollectionSchema } from './presenter';
import { collectionsList } from './query-config';
import { collectionsRepository } from './repository';
import { collectionResource, collectionSchemaResource, collectionSearchBody } from './schema';

const TAGS = ['NFT collections'];
const COLLECTION_NOT_FOUND = 'Collection not found';

export function collectionRoutes(store: Store) {
  const repository = collectionsRepository(store);
  const shape = { tags: TAGS, resource: collectionResource, present: presentCollection };
  return [
    recordListRoute({ ...shape, path: '/nft/collections', summary: 'List NFT collections', config: collectionsList, page: repository.list }),
    recordSearchRoute({
      ...shape,
      path: '/nft/collections/search',
      summary: 'Search NFT collections',
      description: 'Collections containing the body: objects match by the given keys (extra keys allowed), arrays by the given elements, scalars by equality. `{}` matches all.',
      config: collectionsList,
      body: collectionSearchBody,
      search: repository.search,
    }),
    recordByIdRoute({
      ...shape,
      path: '/nft/collections/:id',
      summary: 'Get an NFT collection',
      notFoundMessage: COLLECTION_NOT_FOUND,
      find: repository.findById,
    }),
    recordByIdRoute({
      path: '/nft/collections/:id/schema',
      summary: "Get an NFT collection's JSON schema",
      tags: TAGS,
      resource: collectionSchemaResource,
      present: presentCollectionSchema,
      notFoundMessage: COLLECTION_NOT_FOUND,
      find: repository.findById,
    }),
    defineRoute({
      method: 'get',
      path: '/nft/collections/:id/wallets',
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
