import { ApiError } from '@ledger-api/http-core';
import type { Context, Next } from 'koa';
import type { HistoryQuery } from './history-query';
import { INVALID_CURSOR, type CursorToken, type WalkBlock } from './cursor';
import type { RequestLocation } from './paging';
import type { ServedLedgerState } from './types';

/**
 * Reads at a past height (docs/behaviour.md section 12): the step that answers
 * a route that reads records at the height asked for (or its cursor walk's),
 * or refuses with the 409 or 410 the section names.
 */

/** How far back a route reads: point reads (by id, sub-resources, batches) or lists and searches. */
export type HistoryReach = 'point' | 'list';

/** What the area keeps of its past and how a request reads it; the service wires it to its store. */
export interface HistoryReads {
  /** Point reads reach this many blocks back from the newest height (HISTORY_BLOCKS). */
  pointBlocks: number;
  /** Lists and searches reach this many (LIST_HISTORY_BLOCKS). */
  listBlocks: number;
  /** A block this many below the newest height or more is never reverted (FINALITY_DEPTH). */
  finalityDepth: number;
  /** The id of block `height` on the chain followed now; undefined once it is no longer kept. */
  blockIdAt(height: number): Promise<string | undefined>;
  /** Runs `work` with every store read of the request taken at `height`. */
  readAt<T>(height: number, work: () => Promise<T>): Promise<T>;
  /** The newest ledger state once the area applied block `height`, or when `timeoutMs` ran out. */
  waitFor(height: number, timeoutMs: number): Promise<ServedLedgerState>;
}

/** How long `minHeight` waits for its block (docs/behaviour.md section 12). */
export const MIN_HEIGHT_WAIT_MS = 2000;

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
  if (height === head.height && (blockId === undefined || blockId === head.blockId)) return { height, blockId: head.blockId };
  if (height > head.height) throw notYetAvailable(height, head.height);
  const earliest = earliestHeight(history, reach, head.height);
  if (height < earliest) throw noLongerAvailable(height, earliest);
  const id = height === head.height ? head.blockId : await history.blockIdAt(height);
  if (id === undefined) throw noLongerAvailable(height, earliest);
  if (blockId !== undefined && blockId !== id) throw new ApiError(409, `block ${blockId} is not at height ${height}`, { blockId: id });
  return { height, blockId: id };
}

export const WALK_REVERTED = 'the block this walk was reading at was reverted; start again from the first link';

/**
 * The block a cursor walk goes on reading at: the one its first page was read
 * at, while that is still on the chain and inside the list window; `first`
 * (the walk's first page at the newest height) goes with either refusal.
 */
async function walkBlockToRead(history: HistoryReads, head: ServedLedgerState, at: WalkBlock, first: string): Promise<WalkBlock> {
  try {
    return await blockToRead(history, 'list', head, at);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    if (error.status === 410) throw new ApiError(410, error.message, { ...error.members, first });
    throw new ApiError(409, WALK_REVERTED, { first });
  }
}

interface HeightInput {
  query: HistoryQuery & { cursor?: CursorToken };
  height: number;
  blockId: string;
}

/**
 * The step of a record-reading route: a request with `height`, or a cursor of
 * a walk, is answered from the state at that block, with its headers.
 * `walkStart` gives a list's first page at the newest height.
 */
export function readAtHeight(history: HistoryReads | undefined, reach: HistoryReach, walkStart?: (input: RouteInputLocation) => string) {
  return async (ctx: Context, next: Next): Promise<void> => {
    const input = ctx.state.input as HeightInput & RouteInputLocation;
    const { height, blockId, cursor, minHeight } = input.query;
    const walk = cursor?.at;
    if (height === undefined && !walk && minHeight === undefined) return next();
    // An app without the area's history (a test of the kit's own) takes none of the keys.
    if (!history) throw new ApiError(422, `"${height !== undefined ? 'height' : minHeight !== undefined ? 'minHeight' : 'cursor'}" is not allowed`);
    if (minHeight !== undefined && !walk) return readAfter(ctx, history, minHeight, next);
    // A walk's own links keep minHeight at or below its height; one pinned below it cannot be read at a later height.
    if (minHeight !== undefined && walk!.height < minHeight) {
      throw noLongerAvailable(walk!.height, minHeight, walkStart ? { first: walkStart(input) } : {});
    }
    if (height !== undefined && walk && walk.height !== height) throw new ApiError(422, INVALID_CURSOR);
    const head = ctx.state.ledgerState as ServedLedgerState;
    const block =
      height === undefined && walk && walkStart
        ? await walkBlockToRead(history, head, walk, walkStart(input))
        : await blockToRead(history, reach, head, { height: height ?? walk!.height, blockId: blockId ?? walk?.blockId });
    input.height = block.height;
    input.blockId = block.blockId;
    // Named by height and id, and too deep to be reverted: the answer never changes.
    ctx.state.final = blockId !== undefined && head.height - block.height >= history.finalityDepth;
    ctx.set({ 'X-Block-Height': String(block.height), 'X-Block-Id': block.blockId });
    await (block.height === head.height ? next() : history.readAt(block.height, next));
  };
}

/** `minHeight` on a first page or a point read: the newest state once it holds block `minHeight`, or 409 after the wait. */
async function readAfter(ctx: Context, history: HistoryReads, minHeight: number, next: Next): Promise<void> {
  const known = ctx.state.ledgerState as ServedLedgerState;
  if (minHeight <= known.height) return next();
  const head = await history.waitFor(minHeight, MIN_HEIGHT_WAIT_MS);
  if (minHeight > head.height) throw notYetAvailable(minHeight, head.height);
  ctx.state.ledgerState = head;
  Object.assign(ctx.state.input as HeightInput, { height: head.height, blockId: head.blockId });
  ctx.set({ 'X-Block-Height': String(head.height), 'X-Block-Id': head.blockId });
  await next();
}

/** What a list's first link is made of. */
export interface RouteInputLocation {
  location: RequestLocation;
  query: { limit: number };
}
