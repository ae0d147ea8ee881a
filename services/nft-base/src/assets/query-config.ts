import { booleanParam } from '@ledger-api/http';
import { ledgerRecordList } from '@ledger-api/nft-read-model';

/** GET /nft/assets/wallet/{id}: the compatibility flags narrow the wallet's assets to auctioned ones. */
export const walletAssetsList = ledgerRecordList({
  filters: {
    inAuction: booleanParam('Only assets in an active auction whose expiration height is not reached yet').default(false),
    inExpiredAuction: booleanParam('With inAuction=true: assets in any active auction, expired or not').default(false),
  },
  linkFlags: { inAuction: 'false', inExpiredAuction: 'false' },
  // inAuction=true reads auctions' expiry at the height; the other flag only widens that.
  expiryKeys: ['inAuction'],
});
