import { nftListConfig } from '@ledger-api/nft-model';

/** GET /nft/exchange/auctions/canceled: every auction cancel record. */
export const canceledAuctionsList = nftListConfig({});
