import type { ListConfig } from '@ledger-api/http';
import { LEDGER_ORDER, LEDGER_RECORD_ORDERABLE } from '@ledger-api/nft-read-model';

/** GET /nft/exchange/bids/canceled: every bid cancel record. */
export const canceledBidsList = {
  filters: {},
  orderable: { ...LEDGER_RECORD_ORDERABLE },
  defaultOrder: LEDGER_ORDER,
  transform: true,
  totalCountIsEstimate: true,
} satisfies ListConfig;
