import { configurationRoute, type PackageInfo } from '@ledger-api/http';
import { NFT_BASE_TYPE_GROUP } from '@ledger-api/nft-read-model';

/** The NFT base constants of docs/api.md's Limits table. */
export const NFT_BASE_CONSTANTS = {
  crypto: {
    nftBaseTypeGroup: NFT_BASE_TYPE_GROUP,
    nftCollectionName: { minLength: 5, maxLength: 40 },
    nftCollectionDescription: { minLength: 5, maxLength: 80 },
    nftCollectionAllowedIssuers: { minItems: 1, maxItems: 10 },
    nftTransfer: { minItems: 1, maxItems: 10 },
  },
  transactions: {},
};

export const configurationRoutes = (pkg: PackageInfo) => [
  configurationRoute({ path: '/nft/configurations', operationId: 'getNftConfiguration', tag: 'NFT configuration' }, pkg, NFT_BASE_CONSTANTS),
];
