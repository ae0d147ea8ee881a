import { z } from 'zod';
import { hexParam, integerParam } from './fields';

/** The query keys of reads at a past height (docs/behaviour.md section 12), on every route that reads records. */

/** `"<name>" must be larger than or equal to 1`, the wording section 12 gives. */
function heightParam(description: string) {
  return integerParam()
    .refine((value) => value >= 1, { abort: true, error: (issue) => `"${String(issue.path?.[0])}" must be larger than or equal to 1` })
    .meta({ type: 'integer', minimum: 1, description })
    .optional();
}

/** The query keys of reads at a past height, on every route that reads records. */
export const historyQueryShape = {
  height: heightParam('Answer as the area stood right after it applied block `height` of the chain it follows now'),
  blockId: hexParam(64, 'Only with `height`: the id block `height` must have (64 hex characters), else 409').optional(),
  minHeight: heightParam('Answer at the newest height once the area applied block `minHeight`, waiting up to 2 s; not with `height`'),
};

export interface HistoryQuery {
  height?: number;
  blockId?: string;
  minHeight?: number;
}

/** The rules between the keys, as a schema check. */
export function historyRules(value: HistoryQuery, ctx: z.RefinementCtx): void {
  if (value.blockId !== undefined && value.height === undefined) {
    ctx.addIssue({ code: 'custom', message: '"blockId" is not allowed without "height"', path: ['blockId'] });
  } else if (value.minHeight !== undefined && value.height !== undefined) {
    ctx.addIssue({ code: 'custom', message: '"minHeight" is not allowed with "height"', path: ['minHeight'] });
  }
}

/** A strict query schema of `shape` with the history keys and their rules. */
export function withHistoryQuery<S extends z.ZodRawShape>(shape: S) {
  return z.strictObject({ ...shape, ...historyQueryShape }).superRefine((value, ctx) => historyRules(value as HistoryQuery, ctx));
}
