import { nftListConfig } from '@ledger-api/nft-model';

/** GET /nft/exchange/bids and POST /nft/exchange/bids/search: bids in every state. */
export const bidsList = nftListConfig({}, { bidAmount: 'sortKeys.bidAmount' });
