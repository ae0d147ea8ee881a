import { booleanParam, type ListConfig } from '@ledger-api/http';
import { LEDGER_ORDER, LEDGER_RECORD_ORDERABLE } from '@ledger-api/nft-read-model';

// No default: absent means no expiry filter, so it never shows in paging links.
const expired = booleanParam(
  'Absent: no expiry filter; true: only auctions whose expiration height the last applied block has reached; false: only those it has not',
).optional();

/** GET /nft/exchange/auctions: active auctions, expired or not unless `expired` narrows them. */
export const auctionsList = {
  filters: { expired },
  orderable: { ...LEDGER_RECORD_ORDERABLE, startAmount: 'sortKeys.startAmount', 'expiration.blockHeight': 'expirationHeight' },
  defaultOrder: LEDGER_ORDER,
  transform: true,
  totalCountIsEstimate: true,
} satisfies ListConfig;

/** POST /nft/exchange/auctions/search: auctions in every state unless onlyActive. */
export const auctionsSearch = {
  filters: {
    expired,
    onlyActive: booleanParam('Only active auctions').default(false),
    includeBids: booleanParam('Add `nftAuction.bids`: the active bids of each auction, in ledger order').default(false),
    canceledBids: booleanParam('With includeBids: canceled and ended bids too').default(false),
  },
  orderable: { ...LEDGER_RECORD_ORDERABLE, startAmount: 'sortKeys.startAmount', 'expiration.blockHeight': 'expirationHeight' },
  defaultOrder: LEDGER_ORDER,
  transform: true,
  linkFlags: { onlyActive: 'false', includeBids: 'false', canceledBids: 'false' },
  totalCountIsEstimate: true,
} satisfies ListConfig;
