import { ApiError } from '@ledger-api/http-core';
import type { Context, Next } from 'koa';
import { z } from 'zod';
import { hexParam, integerParam } from './fields';
import type { ServedLedgerState } from './types';

/**
 * Reads at a past height (api-behaviour.md section 12): the query keys of every
 * route that reads records, and the step that answers such a route at the
 * height asked for, or refuses with the 409 or 410 the section names.
 */

/** How far back a route reads: point reads (by id, sub-resources, batches) or lists and searches. */
export type HistoryReach = 'point' | 'list';

/** What the area keeps of its past and how a request reads it; the service wires it to its store. */
export interface HistoryReads {
  /** Point reads reach this many blocks back from the newest height (HISTORY_BLOCKS). */
  pointBlocks: number;
  /** Lists and searches reach this many (LIST_HISTORY_BLOCKS). */
  listBlocks: number;
  /** The id of block `height` on the chain followed now; undefined once it is no longer kept. */
  blockIdAt(height: number): Promise<string | undefined>;
  /** Runs `work` with every store read of the request taken at `height`. */
  readAt<T>(height: number, work: () => Promise<T>): Promise<T>;
}

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

/** The oldest height a route of this reach answers at, from the newest one. */
export function earliestHeight(history: Pick<HistoryReads, 'pointBlocks' | 'listBlocks'>, reach: HistoryReach, head: number): number {
  return Math.max(1, head - (reach === 'list' ? history.listBlocks : history.pointBlocks) + 1);
}

export function notYetAvailable(height: number, head: number): ApiError {
  const message = `height ${height} is not yet available; the area is at height ${head}`;
  return new ApiError(409, message, { head }, { 'Retry-After': '1' });
}

export function noLongerAvailable(height: number, earliest: number, members: Record<string, unknown> = {}): ApiError {
  return new ApiError(410, `height ${height} is no longer available; the earliest is ${earliest}`, { earliestHeight: earliest, ...members });
}

/** The block a read at `height` (with `blockId`, if sent) reads at, or the error that refuses it. */
export async function blockToRead(
  history: HistoryReads,
  reach: HistoryReach,
  head: ServedLedgerState,
  { height, blockId }: { height: number; blockId?: string },
): Promise<{ height: number; blockId: string }> {
  if (height > head.height) throw notYetAvailable(height, head.height);
  const earliest = earliestHeight(history, reach, head.height);
  if (height < earliest) throw noLongerAvailable(height, earliest);
  const id = height === head.height ? head.blockId : await history.blockIdAt(height);
  if (id === undefined) throw noLongerAvailable(height, earliest);
  if (blockId !== undefined && blockId !== id) throw new ApiError(409, `block ${blockId} is not at height ${height}`, { blockId: id });
  return { height, blockId: id };
}

/** The step of a record-reading route: a request with `height` is answered from the state at that block, with its headers. */
export function readAtHeight(history: HistoryReads | undefined, reach: HistoryReach) {
  return async (ctx: Context, next: Next): Promise<void> => {
    const input = ctx.state.input as { query: HistoryQuery; height: number };
    const { height, blockId } = input.query;
    if (height === undefined) return next();
    if (!history) throw new ApiError(422, '"height" is not allowed');
    const block = await blockToRead(history, reach, ctx.state.ledgerState as ServedLedgerState, { height, blockId });
    input.height = block.height;
    ctx.set({ 'X-Block-Height': String(block.height), 'X-Block-Id': block.blockId });
    await history.readAt(block.height, next);
  };
}
