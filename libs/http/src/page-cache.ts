import { hash } from 'node:crypto';
import type { CachedPage, ContentCoding, PageCache, PageVariant } from '@ledger-api/cache';
import type { Context, Middleware } from 'koa';
import {
  allEncoded,
  encodeEachVariant,
  encodeVariant,
  holdsUntilDataChanges,
  isStorable,
  LEDGER_COMMIT_HEADER,
  negotiateEncoding,
  pageRequestKey,
  type VariantsInEncoding,
  setContentEncoding,
  setRepresentationHeaders,
  STORABLE_HEADER,
  VALIDITY_HEADER,
} from '@ledger-api/http-core';
import type { ServedLedgerState } from './types';

/** What caching needs of a page cache: pages keyed by a commit id, stored whole and read one representation at a time. */
export type PageCacheLike = Pick<PageCache, 'get' | 'set'>;

export interface PageCacheOptions {
  /** Cache namespace, e.g. `guardian`. */
  area: string;
  /** The area's ledger state now: its commit changes with every applied or reverted block, its data commit with those that change the area's data. */
  ledgerState(): Promise<Pick<ServedLedgerState, 'commit' | 'dataCommit' | 'commitInFlight'>>;
  /** Without a cache every request renders; the answer is the same. Only answers marked storable are looked up and kept. */
  cache?: PageCacheLike;
  /**
   * Every read of a request sees one state of the store (snapshot reads): a page
   * rendered from the state read before it is of that state, so it is cached
   * without reading the ledger state again.
   */
  snapshotReads?: boolean;
  /** Counts cache lookups by result. */
  lookups?: { inc(labels: { result: 'hit' | 'miss' }): void };
}

/**
 * The page cache of an API route, and how its JSON answer goes out. Downstream
 * middleware renders the page into `ctx.body`; this middleware sends it as JSON
 * text, or answers from the cache instead when it can.
 *
 * A page is keyed by area, method, path, query string, the request body's text
 * (`ctx.state.requestBodyText`, undefined for GET) and the commit the
 * request is answered from: `ctx.state.ledgerState` when an earlier middleware read
 * it, else `ledgerState()` read now. A page marked to hold until the area's data
 * changes (VALIDITY_HEADER) is keyed by the data commit, so blocks that write
 * nothing to the area leave it cached; any other by the commit, which every
 * block moves. Its X-Block-Height is the head's, set before this middleware and
 * never stored. A rendered page is stored only when no block
 * commit was in flight before or after the render and the commit held still
 * across it; with snapshot reads the state before the render is all there is to check.
 *
 * Only an answer an earlier middleware marked storable (STORABLE_HEADER, which the
 * gateway's edge cache reads too) is looked up and stored; any other is rendered for
 * its request alone, in the one form it asks for.
 *
 * A page is stored with its br and gzip forms and an ETag for each, all made once,
 * so a hit hashes and compresses nothing. The answer is the form the request's
 * Accept-Encoding picks (see negotiateEncoding), sent as soon as that form is made:
 * a plain answer does not wait for the zlib calls of the others, which the page is
 * stored after (right after a commit many pages are made at once, and their
 * compressing queues on the thread pool). A GET or HEAD whose If-None-Match
 * holds for that form answers 304. POST answers are never stored by clients
 * (`no-store`); GET answers are revalidated (`no-cache`).
 *
 * Right after a commit that changed the data, every page of the area is a miss at once: a
 * request whose page is being rendered by another request waits for that page instead of
 * rendering it again.
 */
export function pageCache(options: PageCacheOptions): Middleware {
  const rendering: PagesInRender = new Map();
  return async (ctx, next) => {
    const coding = negotiateEncoding(ctx.get('accept-encoding'));
    send(ctx, await cachedRender(options, rendering, ctx, next, coding));
  };
}

/**
 * Pages being rendered or encoded, by key: each settles to the page's forms in encoding, or to
 * undefined when it will not be stored. A key leaves once its page is stored, or once it is
 * known that it will not be (not storable, a form failed to encode, the render failed).
 */
type PagesInRender = Map<string, Promise<VariantsInEncoding | undefined>>;

type LedgerState = Awaited<ReturnType<PageCacheOptions['ledgerState']>>;

function pageKey(area: string, commit: string, ctx: Context): string {
  const body: string | undefined = ctx.state.requestBodyText;
  const request = pageRequestKey({ method: ctx.method, path: ctx.path, querystring: ctx.querystring, body });
  return `${area}:${hash('sha1', `${commit} ${request}`, 'base64url')}`;
}

/** The answer to send, and the commit it belongs to whole: unset for a page that may mix two ledger states. */
interface RenderedPage {
  variant: PageVariant;
  settledAt?: string;
}

async function cachedRender(
  options: PageCacheOptions,
  rendering: PagesInRender,
  ctx: Context,
  render: () => Promise<unknown>,
  coding: ContentCoding,
): Promise<RenderedPage> {
  const { cache } = options;
  const before: LedgerState = ctx.state.ledgerState ?? (await options.ledgerState());
  if (!cache || !isStorable(ctx.response.get(STORABLE_HEADER))) return renderPage(options, before, ctx, render, coding, false);
  const holdsUntilDataChange = holdsUntilDataChanges(ctx.response.get(VALIDITY_HEADER));
  const key = pageKey(options.area, holdsUntilDataChange ? before.dataCommit : before.commit, ctx);
  // A page cached under this key was read from a settled state it holds for, even while the next block is being written.
  const hit = await cache.get(key, coding);
  options.lookups?.inc({ result: hit === null ? 'miss' : 'hit' });
  if (hit !== null) return { variant: hit, settledAt: before.commit };
  const inRender = await rendering.get(key);
  if (inRender) return { variant: await inRender[coding], settledAt: before.commit };
  return renderAndStore(cache, rendering, key, renderPage(options, before, ctx, render, coding, true));
}

/**
 * Answers with the rendered page's own form as soon as it is made, and stores the page once all
 * its forms are; until then, requests for it wait for it under `key` instead of rendering it again.
 */
async function renderAndStore(
  cache: PageCacheLike,
  rendering: PagesInRender,
  key: string,
  rendered: Promise<RenderedPage & { stored?: PageToStore }>,
): Promise<RenderedPage> {
  const page = rendered.then(
    ({ stored }) => stored?.variants,
    () => undefined,
  );
  rendering.set(key, page);
  const leave = () => {
    if (rendering.get(key) === page) rendering.delete(key);
  };
  try {
    const { stored, ...answer } = await rendered;
    // The caches log their own failures; a page not stored is rendered again by a later request.
    if (stored)
      void stored.whole
        .then((whole) => whole && cache.set(key, whole))
        .catch(() => undefined)
        .finally(leave);
    else leave();
    return answer;
  } catch (error) {
    leave();
    throw error;
  }
}

/** A page to be stored: its forms as each is made, and the whole page once all are (undefined when one failed to encode). */
interface PageToStore {
  variants: VariantsInEncoding;
  whole: Promise<CachedPage | undefined>;
}

function pageToStore(text: string): PageToStore {
  const variants = encodeEachVariant(text);
  // A form that fails to encode fails the requests that asked for it; the page is then not stored.
  return { variants, whole: allEncoded(variants).catch(() => undefined) };
}

/**
 * Renders the page and encodes the form to send; with `encodeAll`, a page read from one
 * settled state comes with every form of it in encoding (`stored`), to be stored. A page read while a
 * block was being written may mix two ledger states: it is served once but never stored.
 * A revert that changes data moves both generations on as well (to values never used
 * before), so no page of a later state can ever be found under an earlier state's key.
 */
async function renderPage(
  options: PageCacheOptions,
  before: LedgerState,
  ctx: Context,
  render: () => Promise<unknown>,
  coding: ContentCoding,
  encodeAll: boolean,
): Promise<RenderedPage & { stored?: PageToStore }> {
  await render();
  const text = JSON.stringify(ctx.body);
  if (!(await renderedWhole(options, before))) return { variant: await encodeVariant(text, coding) };
  if (!encodeAll) return { variant: await encodeVariant(text, coding), settledAt: before.commit };
  const stored = pageToStore(text);
  return { variant: await stored.variants[coding], settledAt: before.commit, stored };
}

/** No block commit was in flight before or after the render, and the commit held still across it. */
async function renderedWhole(options: PageCacheOptions, before: LedgerState): Promise<boolean> {
  if (before.commitInFlight) return false;
  if (options.snapshotReads) return true;
  const after = await options.ledgerState();
  return after.commit === before.commit && !after.commitInFlight;
}

const JSON_TYPE = 'application/json; charset=utf-8';

/** A GET answer read at a final block named by height and id never changes (docs/behaviour.md section 12). */
const IMMUTABLE = 'public, max-age=31536000, immutable';

function send(ctx: Context, { variant, settledAt }: RenderedPage): void {
  ctx.set('Content-Type', JSON_TYPE);
  // The gateway keeps an answer only when it knows it belongs to the newest generation whole.
  if (settledAt !== undefined) ctx.set(LEDGER_COMMIT_HEADER, settledAt);
  ctx.set('Cache-Control', ctx.method === 'POST' ? 'no-store' : ctx.state.final ? IMMUTABLE : 'no-cache');
  setRepresentationHeaders(ctx.res, variant);
  ctx.status = 200;
  // Most requests are not conditional: that check is cheaper than Koa's, which copies the response headers first.
  if (ctx.method !== 'POST' && ctx.get('if-none-match') && ctx.fresh) {
    ctx.status = 304;
    return;
  }
  setContentEncoding(ctx.res, variant);
  ctx.body = variant.body;
}
