import { defineRoute, notFound } from '@ledger-api/http';
import { baseWalletResource, recordByIdRoute, recordListRoute, recordSearchRoute, transactionIdParams } from '@ledger-api/nft-model';
import type { AreaDeps } from '@ledger-api/runtime';
import { z } from 'zod';
import { presentAsset, presentAssetDetail } from './presenter';
import { assetsList, walletAssetsList } from './query-config';
import { assetsRepository, type WalletAssetsQuery } from './repository';
import { assetDetailResource, assetResource, assetSearchBody, walletParams } from './schema';

const TAGS = ['NFT assets'];

export function assetRoutes({ store, networkVersion, ledgerPosition }: AreaDeps) {
  const repository = assetsRepository(store, { networkVersion, ledgerPosition });
  const shape = { tags: TAGS, resource: assetResource, present: presentAsset };
  return [
    recordListRoute({
      ...shape,
      path: '/nft/assets',
      summary: 'List NFT assets',
      description: 'Burned assets stay listed, with ownerPublicKey "BURNED".',
      config: assetsList,
      page: repository.list,
    }),
    recordSearchRoute({
      ...shape,
      path: '/nft/assets/search',
      summary: 'Search NFT assets by attributes',
      description: 'Assets whose attributes contain the body: objects match by the given keys, arrays by the given elements, scalars by equality. `{}` matches all.',
      config: assetsList,
      body: assetSearchBody,
      search: repository.search,
    }),
    recordListRoute({
      ...shape,
      path: '/nft/assets/wallet/:id',
      summary: 'List the NFT assets a wallet owns',
      description: 'A valid public key that owns nothing gives an empty page.',
      params: walletParams,
      config: walletAssetsList,
      page: (query: WalletAssetsQuery, { id }) => repository.ownedBy(id, query),
    }),
    recordByIdRoute({
      path: '/nft/assets/:id',
      summary: 'Get an NFT asset',
      tags: TAGS,
      resource: assetDetailResource,
      present: presentAssetDetail,
      notFoundMessage: 'Asset not found',
      find: repository.findById,
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
    recordListRoute({
      ...shape,
      path: '/nft/collections/:id/assets',
      summary: 'List the NFT assets of a collection',
      tags: ['NFT collections'],
      params: transactionIdParams,
      config: assetsList,
      notFoundMessage: 'Collection not found',
      page: (query, { id }) => repository.ofCollection(id, query),
    }),
  ];
}
