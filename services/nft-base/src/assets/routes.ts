import { batchLookupRoute, defineRoute, notFound, pagedEnvelope, pagedListShape, transactionByIdShape, transactionIdParams } from '@ledger-api/http';
import { baseWalletResource, presentRecord, presentRecords, resourceOrTransaction } from '@ledger-api/nft-read-model';
import type { AreaDeps } from '@ledger-api/runtime';
import { z } from 'zod';
import { presentAsset, presentAssetDetail } from './presenter';
import { assetsList, walletAssetsList } from './query-config';
import { assetsRepository } from './repository';
import { assetDetailResource, assetResource, assetSearchBody, walletParams } from './schema';

const TAGS = ['NFT assets'];
const assetOrTransaction = resourceOrTransaction(assetResource);
/** What GET /nft/assets/{id} answers, and a batch lookup for each asset found. */
const assetDetailOrTransaction = resourceOrTransaction(assetDetailResource);

type AssetsRepository = ReturnType<typeof assetsRepository>;

// The order of the routes is the order of the OpenAPI document's paths.
export function assetRoutes({ store, networkVersion }: AreaDeps) {
  const repository = assetsRepository(store, { networkVersion });
  return [...assetListRoutes(repository), ...singleAssetRoutes(repository), collectionAssetsRoute(repository)];
}

function assetListRoutes(repository: AssetsRepository) {
  return [
    defineRoute({
      method: 'get',
      path: '/nft/assets',
      operationId: 'listAssets',
      summary: 'List NFT assets',
      description: 'Burned assets stay listed, with ownerPublicKey "BURNED".',
      tags: TAGS,
      ...pagedListShape(assetsList, assetOrTransaction),
      async handler({ query, location }) {
        const page = await repository.list(query);
        return pagedEnvelope(location, assetsList, query, page, presentRecords(page.items, query.transform, presentAsset));
      },
    }),
    defineRoute({
      method: 'post',
      path: '/nft/assets/search',
      operationId: 'searchAssets',
      summary: 'Search NFT assets by attributes',
      description:
        'Assets whose attributes contain the body: objects match by the given keys, arrays by the given elements, scalars by equality. `{}` matches all.',
      tags: TAGS,
      ...pagedListShape(assetsList, assetOrTransaction),
      body: assetSearchBody,
      async handler({ query, body, location }) {
        const page = await repository.search(body, query);
        return pagedEnvelope(location, assetsList, query, page, presentRecords(page.items, query.transform, presentAsset));
      },
    }),
    defineRoute({
      method: 'get',
      path: '/nft/assets/wallet/:id',
      operationId: 'listWalletAssets',
      summary: 'List the NFT assets a wallet owns',
      description: 'A valid public key that owns nothing gives an empty page.',
      tags: TAGS,
      params: walletParams,
      ...pagedListShape(walletAssetsList, assetOrTransaction),
      async handler({ params, query, location, height }) {
        const page = await repository.ownedBy(params.id, query, height);
        return pagedEnvelope(location, walletAssetsList, query, page, presentRecords(page.items, query.transform, presentAsset));
      },
    }),
  ];
}

function singleAssetRoutes(repository: AssetsRepository) {
  return [
    defineRoute({
      method: 'get',
      path: '/nft/assets/:id',
      operationId: 'getAsset',
      summary: 'Get an NFT asset',
      tags: TAGS,
      ...transactionByIdShape(assetDetailOrTransaction),
      async handler({ params, query }) {
        const asset = await repository.findById(params.id);
        if (!asset) throw notFound('Asset not found');
        return { data: presentRecord(asset, query.transform, presentAssetDetail) };
      },
    }),
    batchLookupRoute({
      path: '/nft/assets/batch',
      byIdPath: '/nft/assets/{id}',
      operationId: 'batchGetAssets',
      summary: 'Get NFT assets by their ids',
      tags: TAGS,
      item: assetDetailOrTransaction,
      find: (ids) => repository.findByIds(ids),
      present: (asset, query) => presentRecord(asset, query.transform, presentAssetDetail),
    }),
    defineRoute({
      method: 'get',
      path: '/nft/assets/:id/wallets',
      operationId: 'getAssetWallet',
      summary: 'Get the wallet that owns an NFT asset',
      description: 'The current owner in the NFT base form. A burned asset has no owner: 404, as for an unknown asset.',
      tags: TAGS,
      params: transactionIdParams,
      response: z.object({ data: baseWalletResource }),
      errors: [404],
      async handler({ params }) {
        const wallet = await repository.ownerWallet(params.id);
        if (!wallet) throw notFound('Asset not found or it was burned');
        return { data: wallet };
      },
    }),
  ];
}

function collectionAssetsRoute(repository: AssetsRepository) {
  return defineRoute({
    method: 'get',
    path: '/nft/collections/:id/assets',
    operationId: 'listCollectionAssets',
    summary: 'List the NFT assets of a collection',
    tags: ['NFT collections'],
    params: transactionIdParams,
    ...pagedListShape(assetsList, assetOrTransaction),
    errors: [404],
    async handler({ params, query, location }) {
      const page = await repository.ofCollection(params.id, query);
      if (!page) throw notFound('Collection not found');
      return pagedEnvelope(location, assetsList, query, page, presentRecords(page.items, query.transform, presentAsset));
    },
  });
}
