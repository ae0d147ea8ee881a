import { ledgerRecordList } from '@ledger-api/nft-read-model';

/** GET /nft/collections and POST /nft/collections/search. */
export const collectionsList = ledgerRecordList({ orderable: { name: 'name', maximumSupply: 'maximumSupply' } });
