import { createHash } from 'node:crypto';
import { listSort, type FieldOrder, type KeysetPosition, type Sort } from '@ledger-api/store';
import { z } from 'zod';

/**
 * The `cursor` of keyset paging (docs/behaviour.md section 1). Empty, it
 * stands for the first page; otherwise it is an opaque token: the base64url
 * form of a compact JSON object holding the way the page lies from the
 * boundary record (`k`: after, before, or the last page), the boundary's sort
 * values (`v`), and a fingerprint of the sort the values belong to (`s`), so a
 * token made for another order or another list is refused instead of read in
 * the wrong sort; and the height (`h`) and block id (`b`) the walk reads at,
 * which holds it still while new blocks arrive (docs/behaviour.md section 12).
 */

/** The block a walk reads at. */
export interface WalkBlock {
  height: number;
  blockId: string;
}

/** A decoded cursor: a keyset position and, but for the first page, the fingerprint of its sort and the block its walk reads at. */
export type CursorToken = KeysetPosition & { sort?: string; at?: WalkBlock };

export const INVALID_CURSOR = '"cursor" is invalid';

const KIND_CODES = { after: 'a', before: 'b', last: 'l' } as const;
type TokenKind = keyof typeof KIND_CODES;
const KINDS_BY_CODE = new Map(Object.entries(KIND_CODES).map(([kind, code]) => [code as string, kind as TokenKind]));

const FINGERPRINT_LENGTH = 8;
/** Far above any real token (a few sort values, each a key, id or short name); keeps decoding cheap. */
const MAX_TOKEN_LENGTH = 1024;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** A short digest of the stored fields and directions of a sort. */
export function sortFingerprint(sort: Sort): string {
  return createHash('sha256')
    .update(JSON.stringify(Object.entries(sort)))
    .digest('base64url')
    .slice(0, FINGERPRINT_LENGTH);
}

function tokenText(kind: TokenKind, fingerprint: string, values: unknown[] | undefined, at: WalkBlock | undefined): string {
  const token = { k: KIND_CODES[kind], s: fingerprint, ...(values && { v: values }), ...(at && { h: at.height, b: at.blockId }) };
  return Buffer.from(JSON.stringify(token)).toString('base64url');
}

/** The cursor of a keyset position in a list read in `sort`, at the block `at`. */
export function encodeCursor(position: KeysetPosition, sort: Sort, at: WalkBlock): string {
  if (position.kind === 'first') return '';
  return tokenText(position.kind, sortFingerprint(sort), position.kind === 'last' ? undefined : position.values, at);
}

const BLOCK_ID = /^([0-9a-f]{64})?$/;

function walkBlock(height: unknown, blockId: unknown): WalkBlock | undefined {
  const valid = Number.isSafeInteger(height) && (height as number) >= 0 && typeof blockId === 'string' && BLOCK_ID.test(blockId);
  return valid ? { height: height as number, blockId: blockId as string } : undefined;
}

/** Sort values as a list's documents hold them; anything else never came from a link. */
const isSortValue = (value: unknown) =>
  typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));

function tokenPosition(token: unknown): CursorToken | undefined {
  if (typeof token !== 'object' || token === null || Array.isArray(token)) return undefined;
  const { k: code, s: sort, v: values, h: height, b: blockId } = token as Record<string, unknown>;
  const kind = typeof code === 'string' ? KINDS_BY_CODE.get(code) : undefined;
  const at = walkBlock(height, blockId);
  if (!kind || typeof sort !== 'string' || sort.length !== FINGERPRINT_LENGTH || !at) return undefined;
  if (kind === 'last') return values === undefined ? { kind, sort, at } : undefined;
  return Array.isArray(values) && values.length > 0 && values.every(isSortValue) ? { kind, values, sort, at } : undefined;
}

/**
 * The position a cursor stands for, or undefined when it is not a token this
 * codec wrote. Only the exact text encodeCursor gives is accepted, so no two
 * texts name one position and nothing else rides along.
 */
export function decodeCursor(text: string): CursorToken | undefined {
  if (text === '') return { kind: 'first' };
  if (text.length > MAX_TOKEN_LENGTH || !BASE64URL.test(text)) return undefined;
  let token: unknown;
  try {
    token = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  const position = tokenPosition(token);
  if (!position || position.kind === 'first') return undefined;
  const canonical = tokenText(position.kind, position.sort ?? '', position.kind === 'last' ? undefined : position.values, position.at);
  return canonical === text ? position : undefined;
}

/** Whether a decoded cursor was made for a list read in `sort`. */
function fitsSort(cursor: CursorToken, sort: Sort): boolean {
  if (cursor.kind === 'first') return true;
  if (cursor.sort !== sortFingerprint(sort)) return false;
  return cursor.kind === 'last' || cursor.values.length === Object.keys(sort).length;
}

/** The `cursor` query parameter: decoded, or refused as `"cursor" is invalid`. */
export function cursorParam() {
  // The example goes on the input side: zod leaves examples of a transformed value out of its input schema.
  return z
    .string()
    .meta({ examples: [''] })
    .transform((text, ctx): CursorToken => {
      const cursor = decodeCursor(text);
      if (!cursor) {
        ctx.addIssue({ code: 'custom', message: INVALID_CURSOR });
        return z.NEVER;
      }
      return cursor;
    })
    .meta({
      type: 'string',
      description:
        'Keyset paging: empty for the first page, otherwise a token taken from the `next`, `previous` or `last` link of a ' +
        'response to the same list and orderBy. Each page then starts from the record beside it, so deep pages cost ' +
        'what the first does and a walk keeps its order while new blocks arrive. Not allowed with `page` or `offset`.',
    });
}

/** The members of a list query the cursor rules read; the rest of the query is the route's own. */
export interface CursorQuery {
  cursor?: CursorToken;
  page?: number;
  offset?: number;
  orderBy?: FieldOrder;
}

/**
 * The rules a cursor adds to a list query: no `page` or `offset` beside it,
 * and a token made for the list's sort under the requested orderBy.
 */
export function cursorRules(defaultOrder: Sort) {
  return (query: CursorQuery, ctx: z.RefinementCtx): void => {
    const { cursor } = query;
    if (!cursor) return;
    const other = (['page', 'offset'] as const).find((key) => query[key] !== undefined);
    if (other) ctx.addIssue({ code: 'custom', message: `"${other}" is not allowed with "cursor"` });
    else if (!fitsSort(cursor, listSort(query.orderBy, defaultOrder))) ctx.addIssue({ code: 'custom', message: INVALID_CURSOR });
  };
}
