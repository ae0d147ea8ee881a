import type { ListConfig } from '@ledger-api/http';
import type { z } from 'zod';
import { LEDGER_ORDER, LEDGER_RECORD_ORDERABLE } from './ledger-record';

/**
 * The ListConfig of an NFT or exchange list: transform on, estimate flag on,
 * ledger order by default, and the ledger-record orderable fields plus the
 * resource's own. `linkFlags` are route flags shown in links when defaulted.
 */
export function nftListConfig<F extends z.ZodRawShape>(
  filters: F,
  extraOrderable: Record<string, string> = {},
  linkFlags?: Record<string, string>,
): ListConfig<F> {
  return {
    filters,
    orderable: { ...LEDGER_RECORD_ORDERABLE, ...extraOrderable },
    defaultOrder: { ...LEDGER_ORDER },
    transform: true,
    totalCountIsEstimate: true,
    ...(linkFlags && { linkFlags }),
  };
}
