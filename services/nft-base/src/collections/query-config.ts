import { nftListConfig } from '@ledger-api/nft-model';

/** GET /nft/collections and POST /nft/collections/search. */
export const collectionsList = nftListConfig({}, { name: 'name', maximumSupply: 'maximumSupply' });
