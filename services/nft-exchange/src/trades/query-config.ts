import { nftListConfig } from '@ledger-api/nft-model';

/** GET /nft/exchange/trades and POST /nft/exchange/trades/search. */
export const tradesList = nftListConfig({});
