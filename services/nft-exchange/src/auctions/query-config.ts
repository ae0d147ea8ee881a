import { booleanParam } from '@ledger-api/http';
import { ledgerRecordList } from '@ledger-api/nft-read-model';

// No default: absent means no expiry filter, so it never shows in paging links.
const expired = booleanParam(
  'Absent: no expiry filter; true: only auctions whose expiration height the last applied block has reached; false: only those it has not',
).optional();

const orderable = { startAmount: 'sortKeys.startAmount', 'expiration.blockHeight': 'expirationHeight' };

/** GET /nft/exchange/auctions: active auctions, expired or not unless `expired` narrows them. */
export const auctionsList = ledgerRecordList({ orderable, filters: { expired }, expiryKeys: ['expired'] });

/** POST /nft/exchange/auctions/search: auctions in every state unless onlyActive. */
export const auctionsSearch = ledgerRecordList({
  orderable,
  filters: {
    expired,
    onlyActive: booleanParam('Only active auctions').default(false),
    includeBids: booleanParam('Add `nftAuction.bids`: the active bids of each auction, in ledger order').default(false),
    canceledBids: booleanParam('With includeBids: canceled and ended bids too').default(false),
  },
  linkFlags: { onlyActive: 'false', includeBids: 'false', canceledBids: 'false' },
  expiryKeys: ['expired'],
});
