import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, openSync, closeSync, rmSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request, type IncomingHttpHeaders, type Server } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import Koa from 'koa';
import type { ServedLedgerState } from './types';
import type { CachedPage } from '@ledger-api/cache';
import { STORABLE, STORABLE_HEADER } from '@ledger-api/http-core';
import { waitFor } from '@ledger-api/test-kit';
import { pageCache, type PageCacheLike } from './page-cache';

type State = Pick<ServedLedgerState, 'commit' | 'dataCommit' | 'commitInFlight'>;

let state: State;
/** What the projector does while a page is being read. */
let duringRender: () => void;
let renders: number;
/** Renders wait for it before reading anything. */
let renderGate: Promise<void>;
let stored: Map<string, CachedPage>;
const lookups: string[] = [];
let server: Server;
let base: string;

/** `/big` renders a page well over 1 KB, anything else a small one. */
function render(path: string): unknown {
  if (path !== '/big') return { renders };
  return { renders, data: Array.from({ length: 40 }, (_, index) => ({ id: index.toString(16).padStart(64, 'a'), name: `thing ${index}` })) };
}

/**
 * Each test gets its own app, and with it its own page cache and pages in render: a page an
 * earlier test left encoding on the thread pool can neither answer nor be stored in a later one.
 */
beforeEach(async () => {
  state = { commit: 'g1', dataCommit: 'g1' };
  duringRender = () => undefined;
  renders = 0;
  renderGate = Promise.resolve();
  const pages = new Map<string, CachedPage>();
  stored = pages;
  lookups.length = 0;
  const cache: PageCacheLike = {
    get: async (key, coding) => pages.get(key)?.[coding] ?? null,
    set: async (key, page) => void pages.set(key, page),
  };
  const app = new Koa();
  // As a route marks its answers: every path's but `/unmarked`'s may be kept.
  app.use(async (ctx, next) => {
    if (ctx.path !== '/unmarked') ctx.set(STORABLE_HEADER, STORABLE);
    await next();
  });
  app.use(pageCache({ area: 'area', ledgerState: async () => state, cache, lookups: { inc: ({ result }) => lookups.push(result) } }));
  app.use(async (ctx) => {
    renders += 1;
    await renderGate;
    duringRender();
    ctx.body = render(ctx.path);
  });
  server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});

afterEach(async () => {
  const closed = once(server, 'close');
  server.close();
  server.closeAllConnections();
  await closed;
});

const read = async () => ((await (await fetch(`${base}/things`)).json()) as { renders: number }).renders;

interface Exchange {
  status: number;
  headers: IncomingHttpHeaders;
  /** As sent: still encoded. */
  body: Buffer;
}

/** A request as sent, its answer as received: fetch would add headers and decode the body. */
function exchange(method: string, path: string, headers: Record<string, string> = {}): Promise<Exchange> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

const DECODE: Record<string, (body: Buffer) => Buffer> = { br: brotliDecompressSync, gzip: gunzipSync, identity: (body) => body };

/**
 * Keeps every thread of libuv's pool, where zlib compresses, waiting: each opens a FIFO for
 * reading, which blocks until release() opens it for writing.
 */
function occupyThreadPool(): { release(): Promise<void> } {
  const directory = mkdtempSync(join(tmpdir(), 'pool-'));
  const fifos = Array.from({ length: Number(process.env.UV_THREADPOOL_SIZE ?? 4) }, (_, index) => join(directory, `fifo-${index}`));
  for (const fifo of fifos) execFileSync('mkfifo', [fifo]);
  const readers = fifos.map((fifo) => open(fifo, 'r'));
  return {
    async release() {
      for (const fifo of fifos) closeSync(openSync(fifo, 'w'));
      for (const reader of await Promise.all(readers)) await reader.close();
      rmSync(directory, { recursive: true });
    },
  };
}

describe('pageCache', () => {
  it('caches a page read from a settled state that held still', async () => {
    expect(await read()).toBe(1);
    expect(await read()).toBe(1);
    expect(stored.size).toBe(1);
    expect(lookups).toEqual(['miss', 'hit']);
  });

  it('serves a page read while a commit is in flight but never caches it', async () => {
    state = { commit: 'g1', dataCommit: 'g1', commitInFlight: true };
    expect(await read()).toBe(1);
    expect(await read()).toBe(2);
    expect(stored.size).toBe(0);
  });

  it('does not cache a page when a commit began during the render', async () => {
    duringRender = () => (state = { commit: 'g1', dataCommit: 'g1', commitInFlight: true });
    expect(await read()).toBe(1);
    expect(stored.size).toBe(0);
  });

  it('does not cache a page when a commit completed during the render', async () => {
    duringRender = () => (state = { commit: 'g2', dataCommit: 'g2' });
    expect(await read()).toBe(1);
    expect(stored.size).toBe(0);
  });

  it('renders a page once for requests that miss it while it is being rendered', async () => {
    let open = () => undefined as void;
    renderGate = new Promise((resolve) => (open = resolve));
    const answers = Promise.all(Array.from({ length: 5 }, read));
    await waitFor(() => lookups.length === 5, 'every request to look the page up');
    open();
    expect(await answers).toEqual([1, 1, 1, 1, 1]);
    expect(renders).toBe(1);
  });

  it('renders again for the waiting requests when the page in render may not be stored', async () => {
    let open = () => undefined as void;
    renderGate = new Promise((resolve) => (open = resolve));
    duringRender = () => (state = { commit: 'g1', dataCommit: 'g1', commitInFlight: true });
    const answers = Promise.all(Array.from({ length: 3 }, read));
    await waitFor(() => lookups.length === 3, 'every request to look the page up');
    open();
    await answers;
    expect(renders).toBe(3);
    expect(stored.size).toBe(0);
  });

  it('never looks up nor keeps an answer not marked storable, GET or POST, and renders it for each request', async () => {
    const answers = [];
    for (const method of ['GET', 'GET', 'POST', 'POST']) answers.push(await exchange(method, '/unmarked'));
    expect(answers.map(({ body }) => (JSON.parse(body.toString()) as { renders: number }).renders)).toEqual([1, 2, 3, 4]);
    expect(answers.every(({ status, headers }) => status === 200 && headers[STORABLE_HEADER] === undefined)).toBe(true);
    expect(stored.size).toBe(0);
    expect(lookups).toEqual([]);
  });

  it('keeps a marked POST answer under its request and leaves the mark on it for the gateway', async () => {
    const answers = [await exchange('POST', '/search'), await exchange('POST', '/search')];
    expect(answers.map(({ headers }) => headers[STORABLE_HEADER])).toEqual([STORABLE, STORABLE]);
    expect(renders).toBe(1);
    expect(stored.size).toBe(1);
    expect(lookups).toEqual(['miss', 'hit']);
  });

  it('keeps serving the settled page of a generation while the next commit is in flight', async () => {
    expect(await read()).toBe(1);
    state = { commit: 'g1', dataCommit: 'g1', commitInFlight: true };
    expect(await read()).toBe(1);
  });
});

describe('pageCache content codings', () => {
  const ACCEPT: Record<string, string> = { br: 'gzip, deflate, br', gzip: 'gzip, deflate', identity: 'identity' };

  it.each(['br', 'gzip', 'identity'])('answers %s from the one cached render, with an ETag of its own and Vary', async (coding) => {
    const etags = new Set<string | undefined>();
    for (const each of ['br', 'gzip', 'identity']) etags.add((await exchange('GET', '/big', { 'accept-encoding': ACCEPT[each] })).headers.etag);
    const answer = await exchange('GET', '/big', { 'accept-encoding': ACCEPT[coding] });
    expect(renders).toBe(1);
    expect(answer.status).toBe(200);
    expect(answer.headers['content-encoding']).toBe(coding === 'identity' ? undefined : coding);
    expect(answer.headers.vary).toBe('Accept-Encoding');
    expect(Number(answer.headers['content-length'])).toBe(answer.body.length);
    expect(JSON.parse(DECODE[coding](answer.body).toString())).toEqual(render('/big'));
    expect(etags.size).toBe(3);
  });

  it.each(['br', 'gzip', 'identity'])('answers GET and HEAD with If-None-Match of the %s ETag with 304, another with the page', async (coding) => {
    const headers = { 'accept-encoding': ACCEPT[coding] };
    const { headers: first } = await exchange('GET', '/big', headers);
    const other = (await exchange('GET', '/big', { 'accept-encoding': coding === 'br' ? 'gzip' : 'br' })).headers.etag!;
    for (const method of ['GET', 'HEAD']) {
      const unchanged = await exchange(method, '/big', { ...headers, 'if-none-match': first.etag! });
      expect(unchanged).toMatchObject({ status: 304, body: Buffer.alloc(0) });
      expect(unchanged.headers).toMatchObject({ etag: first.etag, vary: 'Accept-Encoding', 'cache-control': 'no-cache' });
      expect(unchanged.headers['content-encoding']).toBeUndefined();
      expect((await exchange(method, '/big', { ...headers, 'if-none-match': other })).status).toBe(200);
    }
  });

  it.each(['br', 'gzip', 'identity'])('answers HEAD for %s with the headers of GET and no body', async (coding) => {
    const headers = { 'accept-encoding': ACCEPT[coding] };
    const get = await exchange('GET', '/big', headers);
    const head = await exchange('HEAD', '/big', headers);
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    for (const name of ['content-type', 'content-length', 'content-encoding', 'etag', 'vary', 'cache-control']) {
      expect([name, head.headers[name]]).toEqual([name, get.headers[name]]);
    }
  });

  it('leaves a page of 1 KB or less plain whatever the client accepts, with one ETag', async () => {
    const answers = await Promise.all(Object.values(ACCEPT).map((accept) => exchange('GET', '/small', { 'accept-encoding': accept })));
    for (const answer of answers) {
      expect(answer.headers['content-encoding']).toBeUndefined();
      expect(answer.headers.vary).toBe('Accept-Encoding');
      expect(JSON.parse(answer.body.toString())).toEqual({ renders: 1 });
    }
    expect(new Set(answers.map(({ headers }) => headers.etag)).size).toBe(1);
  });

  it('answers a plain request before the page is compressed, and stores the page once it is', async () => {
    const pool = occupyThreadPool();
    try {
      const plain = await exchange('GET', '/big', { 'accept-encoding': 'identity' });
      expect(JSON.parse(plain.body.toString())).toEqual(render('/big'));
      expect(stored.size).toBe(0);
    } finally {
      await pool.release();
    }
    await waitFor(() => stored.size === 1, 'the page to be stored');
    const compressed = await exchange('GET', '/big', { 'accept-encoding': 'br' });
    expect(JSON.parse(brotliDecompressSync(compressed.body).toString())).toEqual(render('/big'));
    expect(renders).toBe(1);
    expect(lookups).toEqual(['miss', 'hit']);
  });

  it('compresses a page it may not cache, for this one request', async () => {
    state = { commit: 'g1', dataCommit: 'g1', commitInFlight: true };
    const answer = await exchange('GET', '/big', { 'accept-encoding': 'br' });
    expect(answer.headers['content-encoding']).toBe('br');
    expect(JSON.parse(brotliDecompressSync(answer.body).toString())).toEqual(render('/big'));
    expect(stored.size).toBe(0);
  });

  it('never answers a POST with 304', async () => {
    const { headers } = await exchange('POST', '/big', { 'accept-encoding': 'gzip' });
    const again = await exchange('POST', '/big', { 'accept-encoding': 'gzip', 'if-none-match': headers.etag! });
    expect(again.status).toBe(200);
    expect(again.headers).toMatchObject({ 'content-encoding': 'gzip', 'cache-control': 'no-store' });
  });
});
