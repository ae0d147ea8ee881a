import { nftListConfig } from '@ledger-api/nft-model';

/** GET /nft/burns. */
export const burnsList = nftListConfig({});
