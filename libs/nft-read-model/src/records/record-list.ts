import type { z } from 'zod';
import { LEDGER_ORDER, LEDGER_RECORD_ORDERABLE } from './ledger-record';

export interface LedgerRecordListOptions<F> {
  /** API field -> stored field, beside those of every record. */
  orderable?: Record<string, string>;
  /** The list's own query filters and flags. */
  filters?: F;
  /** Defaults its paging links show when the client did not send them. */
  linkFlags?: Record<string, string>;
  /** Filters evaluated at the height the answer is read at (expiry flags). */
  expiryKeys?: ReadonlyArray<keyof F & string>;
}

/**
 * The list config (the HTTP kit's ListConfig) of an NFT or exchange record list:
 * ledger order by default, the fields every record orders by, `transform`, and a
 * total that may be an estimate; a list adds what is its own.
 */
export function ledgerRecordList<F extends z.ZodRawShape = Record<never, never>>({
  orderable,
  filters,
  linkFlags,
  expiryKeys,
}: LedgerRecordListOptions<F> = {}) {
  return {
    filters: filters ?? ({} as F),
    orderable: { ...LEDGER_RECORD_ORDERABLE, ...orderable },
    defaultOrder: LEDGER_ORDER,
    transform: true,
    ...(linkFlags && { linkFlags }),
    ...(expiryKeys && { expiryKeys }),
    totalCountIsEstimate: true,
  };
}

/** A list of records that has nothing of its own. */
export const LEDGER_RECORD_LIST = ledgerRecordList();
