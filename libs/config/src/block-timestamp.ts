import { z } from 'zod';

/**
 * The members of a ledger block's timestamp (docs/ledger-events.md section 2), which every record
 * and live event read from a block carries. The one definition both the records' `Timestamp`
 * and the live stream's block events build their schemas from.
 */
export const blockTimestampFields = {
  epoch: z.number().int(),
  unix: z.number().int().meta({ description: 'Unix time' }),
  human: z.string().meta({ description: 'ISO 8601 UTC date-time with milliseconds' }),
};
