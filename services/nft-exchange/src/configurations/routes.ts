import { configurationRoute, type PackageInfo } from '@ledger-api/http';
import { NFT_AUCTION_SAFETY_DISTANCE, NFT_EXCHANGE_TYPE_GROUP } from '@ledger-api/nft-read-model';

/** The Exchange constants of docs/api.md's Limits table. */
export const EXCHANGE_CONSTANTS = {
  crypto: {
    nftExchangeTypeGroup: NFT_EXCHANGE_TYPE_GROUP,
    nftAuction: { minItems: 1, maxItems: 10 },
  },
  transactions: {
    safetyDistance: NFT_AUCTION_SAFETY_DISTANCE,
  },
};

export const configurationRoutes = (pkg: PackageInfo) => [
  configurationRoute(
    { path: '/nft/exchange/configurations', operationId: 'getExchangeConfiguration', tag: 'Exchange configuration' },
    pkg,
    EXCHANGE_CONSTANTS,
  ),
];
