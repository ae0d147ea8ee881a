import { defineRoute, listQuerySchema, notFound, pagedEnvelope, pagedResponse, type ListConfig, type PagingQuery, type RequestLocation } from '@ledger-api/http';
import { baseWalletResource, presentRecord, rawTransactionResource, transactionIdParams, transformQuery } from '@ledger-api/nft-model';
import type { AreaDeps } from '@ledger-api/runtime';
import { z } from 'zod';
import { presentAsset, presentAssetDetail } from './presenter';
import { assetsList, walletAssetsList } from './query-config';
import { assetsRepository, type AssetPage } from './repository';
import { assetDetailResource, assetResource, assetSearchBody, walletParams } from './schema';

const TAGS = ['NFT assets'];
const assetOrRaw = z.union([assetResource, rawTransactionResource]);

function assetsEnvelope(location: RequestLocation, config: ListConfig, query: PagingQuery, { items, totalCount, ownerKeys }: AssetPage) {
  const data = items.map((doc) => presentRecord(doc, query.transform ?? true, (asset) => presentAsset(asset, ownerKeys)));
  return pagedEnvelope(location, config, query, data, totalCount);
}

export function assetRoutes({ store, networkVersion, ledgerPosition }: AreaDeps) {
  const repository = assetsRepository(store, { networkVersion, ledgerPosition });
  return [
    defineRoute({
      method: 'get',
      path: '/nft/assets',
      summary: 'List NFT assets',
      description: 'Burned assets stay listed, with ownerPublicKey "BURNED".',
      tags: TAGS,
      query: listQuerySchema(assetsList),
      response: pagedResponse(assetOrRaw),
      handler: async ({ query, location }) => assetsEnvelope(location, assetsList, query, await repository.list(query)),
    }),
    defineRoute({
      method: 'post',
      path: '/nft/assets/search',
      summary: 'Search NFT assets by attributes',
      description: 'Assets whose attributes contain the body: objects match by the given keys, arrays by the given elements, scalars by equality. `{}` matches all.',
      tags: TAGS,
      query: listQuerySchema(assetsList),
      body: assetSearchBody,
      response: pagedResponse(assetOrRaw),
      handler: async ({ query, body, location }) => assetsEnvelope(location, assetsList, query, await repository.search(body, query)),
    }),
    defineRoute({
      method: 'get',
      path: '/nft/assets/wallet/:id',
      summary: 'List the NFT assets a wallet owns',
      description: 'A valid public key that owns nothing gives an empty page.',
      tags: TAGS,
      params: walletParams,
      query: listQuerySchema(walletAssetsList),
      response: pagedResponse(assetOrRaw),
      handler: async ({ params, query, location }) => assetsEnvelope(location, walletAssetsList, query, await repository.ownedBy(params.id, query)),
    }),
    defineRoute({
      method: 'get',
      path: '/nft/assets/:id',
      summary: 'Get an NFT asset',
      tags: TAGS,
      params: transactionIdParams,
      query: transformQuery,
      response: z.object({ data: z.union([assetDetailResource, rawTransactionResource]) }),
      errors: [404],
      async handler({ params, query }) {
        const found = await repository.findById(params.id);
        if (!found) throw notFound('Asset not found');
        return { data: presentRecord(found.asset, query.transform, (asset) => presentAssetDetail(asset, found.ownerKeys)) };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/nft/assets/:id/wallets',
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
    defineRoute({
      method: 'get',
      path: '/nft/collections/:id/assets',
      summary: 'List the NFT assets of a collection',
      tags: ['NFT collections'],
      params: transactionIdParams,
      query: listQuerySchema(assetsList),
      response: pagedResponse(assetOrRaw),
      errors: [404],
      async handler({ params, query, location }) {
        const page = await repository.ofCollection(params.id, query);
        if (!page) throw notFound('Collection not found');
        return assetsEnvelope(location, assetsList, query, page);
      },
    }),
  ];
}
