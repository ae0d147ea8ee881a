import { createHash } from 'node:crypto';
import type { Context, Middleware } from 'koa';
import type { ServedLedgerState } from './app';

/** What caching needs: a string store keyed by the ledger generation. */
export interface PageCacheLike {
  get(key: string): Promise<string | null>;
  set(key: string, value: string): Promise<void>;
}

export interface PageCacheOptions {
  /** Cache namespace, e.g. `guardian`. */
  area: string;
  /** The area's ledger state now: its generation changes with every applied or reverted block. */
  ledgerState(): Promise<Pick<ServedLedgerState, 'generation' | 'commitInFlight'>>;
  /** Without a cache every request renders; the answer is the same. */
  cache?: PageCacheLike;
}

/**
 * The page cache of an API route, and how its JSON answer goes out. Downstream
 * middleware renders the page into `ctx.body`; this middleware sends it as JSON
 * text, or answers from the cache instead when it can.
 *
 * A page is keyed by area, method, path, query string, the validated request body
 * (`ctx.state.requestBody`, undefined for GET) and the ledger generation the request
 * is answered from: `ctx.state.ledgerState` when an earlier middleware read it, else
 * `ledgerState()` read now. A rendered page is stored only when no block commit was
 * in flight before or after the render and the generation held still across it.
 *
 * Every page carries an ETag; a GET whose If-None-Match still holds answers 304.
 * POST answers are never stored by clients (`no-store`); GET answers are revalidated
 * (`no-cache`).
 */
export function pageCache(options: PageCacheOptions): Middleware {
  return async (ctx, next) => {
    sendJson(ctx, await cachedRender(options, ctx, next));
  };
}

type LedgerState = Awaited<ReturnType<PageCacheOptions['ledgerState']>>;

async function cachedRender(options: PageCacheOptions, ctx: Context, render: () => Promise<unknown>): Promise<string> {
  const rendered = async () => {
    await render();
    return JSON.stringify(ctx.body);
  };
  const { cache } = options;
  if (!cache) return rendered();
  const before: LedgerState = ctx.state.ledgerState ?? (await options.ledgerState());
  const body: unknown = ctx.state.requestBody;
  const request = `${ctx.method} ${ctx.path}?${ctx.querystring} ${body === undefined ? '' : JSON.stringify(body)}`;
  const key = `${options.area}:${createHash('sha1').update(`${before.generation} ${request}`).digest('base64url')}`;
  // A page cached under this generation was read from the settled state, even while the next block is being written.
  const hit = await cache.get(key);
  if (hit !== null) return hit;
  const text = await rendered();
  // A page read while a block was being written may mix two ledger states; it
  // is served once but never cached. A revert moves the generation on as well,
  // so no page of a later state can ever be found under an earlier state's key.
  if (before.commitInFlight) return text;
  const after = await options.ledgerState();
  if (after.generation === before.generation && !after.commitInFlight) await cache.set(key, text);
  return text;
}

function sendJson(ctx: Context, text: string): void {
  ctx.type = 'application/json; charset=utf-8';
  ctx.set('Cache-Control', ctx.method === 'POST' ? 'no-store' : 'no-cache');
  ctx.etag = createHash('sha1').update(text).digest('base64url');
  ctx.status = 200;
  if (ctx.method !== 'POST' && ctx.fresh) {
    ctx.status = 304;
    return;
  }
  ctx.body = text;
}
