import { booleanParam } from '@ledger-api/http';
import { nftListConfig } from '@ledger-api/nft-model';

/** GET /nft/assets, GET /nft/collections/{id}/assets and POST /nft/assets/search. */
export const assetsList = nftListConfig({});

/** GET /nft/assets/wallet/{id}: the compatibility flags narrow the wallet's assets to auctioned ones. */
export const walletAssetsList = nftListConfig(
  {
    inAuction: booleanParam('Only assets in an active auction whose expiration height is not reached yet').default(false),
    inExpiredAuction: booleanParam('With inAuction=true: assets in any active auction, expired or not').default(false),
  },
  {},
  { inAuction: 'false', inExpiredAuction: 'false' },
);
