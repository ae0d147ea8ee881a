import type { ListConfig } from '@ledger-api/http';
import { LEDGER_ORDER, LEDGER_RECORD_ORDERABLE } from '@ledger-api/nft-read-model';

/** GET /nft/exchange/bids and POST /nft/exchange/bids/search: bids in every state. */
export const bidsList = {
  filters: {},
  orderable: { ...LEDGER_RECORD_ORDERABLE, bidAmount: 'sortKeys.bidAmount' },
  defaultOrder: LEDGER_ORDER,
  transform: true,
  totalCountIsEstimate: true,
} satisfies ListConfig;
