import { generateDemoLedger } from '@ledger-api/demo-ledger';
import { NftLedgerBuilder } from '@ledger-api/nft-read-model/testing';
import { cursorOf, expectCursorRefusals, expectCursorWalksMatchPages, type PagedRoute, type TestArea } from '@ledger-api/runtime/testing';
import { ids, startNftBase } from './testing/gallery';

/** Small pages, so every list spans several. */
const LIMIT = 7;
const SHORT_LIST_LIMIT = 3;

/** The value held most often, e.g. the owner with the most assets. */
function mostCommon(values: string[]): string {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts].sort(([, a], [, b]) => b - a)[0][0];
}

/** Keyset paging of every NFT base list and search on the demo ledger, against page paging. */
describe('cursor paging on the demo ledger', () => {
  let area: TestArea;
  let routes: [PagedRoute, string[], number?][];

  beforeAll(async () => {
    area = await startNftBase(generateDemoLedger({ blockCount: 60 }));
    const assets = (await area.request('GET', '/nft/assets?limit=100')).body.data as { ownerPublicKey?: string; collectionId: string }[];
    const owner = mostCommon(assets.flatMap((asset) => (asset.ownerPublicKey && asset.ownerPublicKey !== 'BURNED' ? [asset.ownerPublicKey] : [])));
    const collection = mostCommon(assets.map((asset) => asset.collectionId));
    routes = [
      [{ method: 'GET', path: '/nft/assets' }, ['', 'orderBy=fee:desc', 'orderBy=amount:asc', 'orderBy=senderPublicKey:asc', 'orderBy=id:desc']],
      [{ method: 'GET', path: '/nft/assets', query: 'transform=false' }, ['orderBy=timestamp:desc']],
      [{ method: 'POST', path: '/nft/assets/search', body: {} }, ['', 'orderBy=nonce:desc']],
      [{ method: 'GET', path: `/nft/assets/wallet/${owner}` }, ['', 'orderBy=fee:asc']],
      [{ method: 'GET', path: `/nft/collections/${collection}/assets` }, ['', 'orderBy=sequence:desc']],
      [{ method: 'GET', path: '/nft/collections' }, ['', 'orderBy=name:asc', 'orderBy=maximumSupply:desc'], SHORT_LIST_LIMIT],
      [{ method: 'POST', path: '/nft/collections/search', body: {} }, ['orderBy=name:desc', 'orderBy=blockHeight:desc'], SHORT_LIST_LIMIT],
      [{ method: 'GET', path: '/nft/burns' }, ['', 'orderBy=fee:desc'], SHORT_LIST_LIMIT],
      [{ method: 'GET', path: '/nft/transfers' }, ['', 'orderBy=amount:desc', 'orderBy=senderPublicKey:asc']],
    ];
  });
  afterAll(() => area.close());

  it('lists the pages of page paging walking next from the first page, and walking previous from the last', async () => {
    for (const [route, orders, limit = LIMIT] of routes) {
      for (const order of orders) await expectCursorWalksMatchPages(area, route, [order, `limit=${limit}`].filter(Boolean).join('&'));
    }
  });

  it('refuses malformed cursors, cursors of another order, and page or offset beside a cursor', async () => {
    for (const [route] of routes) {
      const { body } = await area.request(route.method, `${route.path}?orderBy=fee:asc&cursor=`, route.body);
      await expectCursorRefusals(area, route, cursorOf(body.meta.last)!);
    }
  });
});

describe('a cursor walk while new blocks arrive', () => {
  const ledger = new NftLedgerBuilder();
  const minter = ledger.wallet('minter');
  const collection = ledger.collection(minter, { name: 'Shells', description: 'Sea shells', maximumSupply: 100, jsonSchema: {} });
  const mint = (count: number, from: number) => Array.from({ length: count }, (_, i) => ledger.token(minter, collection.id, { number: from + i }));
  let area: TestArea;

  beforeAll(async () => {
    area = await startNftBase([ledger.block(collection), ledger.block(...mint(20, 0))]);
  });
  afterAll(() => area.close());

  it('goes on from where it stopped, in order, with nothing repeated or skipped', async () => {
    const seen: string[] = [];
    let link: string | null = '/nft/assets?orderBy=id:asc&limit=6&cursor=';
    const before = ids((await area.request('GET', '/nft/assets?orderBy=id:asc')).body);
    for (let page = 0; link; page++) {
      // Assets minted mid-walk get ids anywhere in the order, before the walk's position too.
      if (page === 2) await area.apply([ledger.block(...mint(12, 20))]);
      const { body } = await area.request('GET', link);
      seen.push(...ids(body));
      link = body.meta.next;
    }
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual([...seen].sort());
    expect(seen).toEqual(expect.arrayContaining(before));
  });
});
