import { booleanParam, type ListConfig } from '@ledger-api/http';
import { LEDGER_ORDER, LEDGER_RECORD_ORDERABLE } from '@ledger-api/nft-read-model';

/** GET /nft/assets, GET /nft/collections/{id}/assets and POST /nft/assets/search. */
export const assetsList = {
  filters: {},
  orderable: { ...LEDGER_RECORD_ORDERABLE },
  defaultOrder: LEDGER_ORDER,
  transform: true,
  totalCountIsEstimate: true,
} satisfies ListConfig;

/** GET /nft/assets/wallet/{id}: the compatibility flags narrow the wallet's assets to auctioned ones. */
export const walletAssetsList = {
  filters: {
    inAuction: booleanParam('Only assets in an active auction whose expiration height is not reached yet').default(false),
    inExpiredAuction: booleanParam('With inAuction=true: assets in any active auction, expired or not').default(false),
  },
  orderable: { ...LEDGER_RECORD_ORDERABLE },
  defaultOrder: LEDGER_ORDER,
  transform: true,
  linkFlags: { inAuction: 'false', inExpiredAuction: 'false' },
  totalCountIsEstimate: true,
} satisfies ListConfig;
