import type { ListConfig } from '@ledger-api/http';
import { LEDGER_ORDER, LEDGER_RECORD_ORDERABLE } from '@ledger-api/nft-read-model';

/** GET /nft/collections and POST /nft/collections/search. */
export const collectionsList = {
  filters: {},
  orderable: { ...LEDGER_RECORD_ORDERABLE, name: 'name', maximumSupply: 'maximumSupply' },
  defaultOrder: LEDGER_ORDER,
  transform: true,
  totalCountIsEstimate: true,
} satisfies ListConfig;
