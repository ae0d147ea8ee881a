import type { ListConfig } from '@ledger-api/http';
import { LEDGER_ORDER, LEDGER_RECORD_ORDERABLE } from '@ledger-api/nft-read-model';

/** GET /nft/burns. */
export const burnsList = {
  filters: {},
  orderable: { ...LEDGER_RECORD_ORDERABLE },
  defaultOrder: LEDGER_ORDER,
  transform: true,
  totalCountIsEstimate: true,
} satisfies ListConfig;
