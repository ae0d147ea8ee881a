import { once } from 'node:events';
import type { Server } from 'node:http';
import Koa from 'koa';
import type { ServedLedgerState } from './app';
import { pageCache, type PageCacheLike } from './page-cache';

type State = Pick<ServedLedgerState, 'generation' | 'commitInFlight'>;

let state: State;
/** What the projector does while a page is being read. */
let duringRender: () => void;
let renders: number;
let stored: Map<string, string>;
let server: Server;
let base: string;

beforeAll(async () => {
  const cache: PageCacheLike = { get: async (key) => stored.get(key) ?? null, set: async (key, value) => void stored.set(key, value) };
  const app = new Koa();
  app.use(pageCache({ area: 'area', ledgerState: async () => state, cache }));
  app.use((ctx) => {
    renders += 1;
    duringRender();
    ctx.body = { renders };
  });
  server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});

afterAll(() => new Promise<void>((done) => server.close(() => done())));

beforeEach(() => {
  state = { generation: 'g1' };
  duringRender = () => undefined;
  renders = 0;
  stored = new Map();
});

const read = async () => ((await (await fetch(`${base}/things`)).json()) as { renders: number }).renders;

describe('pageCache', () => {
  it('caches a page read from a settled state that held still', async () => {
    expect(await read()).toBe(1);
    expect(await read()).toBe(1);
    expect(stored.size).toBe(1);
  });

  it('serves a page read while a commit is in flight but never caches it', async () => {
    state = { generation: 'g1', commitInFlight: true };
    expect(await read()).toBe(1);
    expect(await read()).toBe(2);
    expect(stored.size).toBe(0);
  });

  it('does not cache a page when a commit began during the render', async () => {
    duringRender = () => (state = { generation: 'g1', commitInFlight: true });
    expect(await read()).toBe(1);
    expect(stored.size).toBe(0);
  });

  it('does not cache a page when a commit completed during the render', async () => {
    duringRender = () => (state = { generation: 'g2' });
    expect(await read()).toBe(1);
    expect(stored.size).toBe(0);
  });

  it('keeps serving the settled page of a generation while the next commit is in flight', async () => {
    expect(await read()).toBe(1);
    state = { generation: 'g1', commitInFlight: true };
    expect(await read()).toBe(1);
  });
});
