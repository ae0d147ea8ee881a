import { ledgerRecordList } from '@ledger-api/nft-read-model';

/** GET /nft/exchange/bids and POST /nft/exchange/bids/search: bids in every state. */
export const bidsList = ledgerRecordList({ orderable: { bidAmount: 'sortKeys.bidAmount' } });
