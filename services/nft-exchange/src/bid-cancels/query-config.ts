import { nftListConfig } from '@ledger-api/nft-model';

/** GET /nft/exchange/bids/canceled: every bid cancel record. */
export const canceledBidsList = nftListConfig({});
