import { pagedRecordsRoute, recordRoutes, subresourceRoute, transactionIdParams } from '@ledger-api/http';
import { baseWalletResource, LEDGER_RECORD_LIST, recordPresenter, resourceOrTransaction } from '@ledger-api/nft-read-model';
import type { AreaDeps } from '@ledger-api/runtime';
import { presentAsset, presentAssetDetail } from './presenter';
import { walletAssetsList } from './query-config';
import { assetsRepository } from './repository';
import { assetDetailResource, assetResource, assetSearchBody, walletParams } from './schema';

const TAGS = ['NFT assets'];
const assetOrTransaction = resourceOrTransaction(assetResource);
const presentAssetRecord = recordPresenter(presentAsset);
const SEARCH_RULE =
  'Assets whose attributes contain the body: objects match by the given keys, arrays by the given elements, scalars by equality. `{}` matches all.';

type AssetsRepository = ReturnType<typeof assetsRepository>;

// The order of the routes is the order of the OpenAPI document's paths.
export function assetRoutes({ store, networkVersion }: AreaDeps) {
  const repository = assetsRepository(store, { networkVersion });
  const { list, search, byId, batch } = recordRoutes({
    path: '/nft/assets',
    tags: TAGS,
    list: LEDGER_RECORD_LIST,
    item: assetOrTransaction,
    detail: resourceOrTransaction(assetDetailResource),
    repository,
    present: presentAssetRecord,
    presentDetail: recordPresenter(presentAssetDetail),
    operations: {
      list: { operationId: 'listAssets', summary: 'List NFT assets', description: 'Burned assets stay listed, with ownerPublicKey "BURNED".' },
      search: { operationId: 'searchAssets', summary: 'Search NFT assets by attributes', description: SEARCH_RULE, body: assetSearchBody },
      byId: { operationId: 'getAsset', summary: 'Get an NFT asset', notFound: 'Asset not found' },
      batch: { operationId: 'batchGetAssets', summary: 'Get NFT assets by their ids' },
    },
  });
  return [list, search, walletAssetsRoute(repository), byId, batch, assetWalletRoute(repository), collectionAssetsRoute(repository)];
}

function walletAssetsRoute(repository: AssetsRepository) {
  return pagedRecordsRoute({
    path: '/nft/assets/wallet/:id',
    operationId: 'listWalletAssets',
    summary: 'List the NFT assets a wallet owns',
    description: 'A valid public key that owns nothing gives an empty page.',
    tags: TAGS,
    params: walletParams,
    list: walletAssetsList,
    item: assetOrTransaction,
    read: ({ params, query, height }) => repository.ownedBy(params.id, query, height),
    present: presentAssetRecord,
  });
}

function assetWalletRoute(repository: AssetsRepository) {
  return subresourceRoute({
    path: '/nft/assets/:id/wallets',
    operationId: 'getAssetWallet',
    summary: 'Get the wallet that owns an NFT asset',
    description: 'The current owner in the NFT base form. A burned asset has no owner: 404, as for an unknown asset.',
    tags: TAGS,
    data: baseWalletResource,
    find: (id) => repository.ownerWallet(id),
    notFound: 'Asset not found or it was burned',
  });
}

function collectionAssetsRoute(repository: AssetsRepository) {
  return pagedRecordsRoute({
    path: '/nft/collections/:id/assets',
    operationId: 'listCollectionAssets',
    summary: 'List the NFT assets of a collection',
    tags: ['NFT collections'],
    params: transactionIdParams,
    list: LEDGER_RECORD_LIST,
    item: assetOrTransaction,
    read: ({ params, query }) => repository.ofCollection(params.id, query),
    notFound: 'Collection not found',
    present: presentAssetRecord,
  });
}
