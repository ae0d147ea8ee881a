import { generateDemoLedger } from '@ledger-api/demo-ledger';
import {
  cursorOf,
  expectCursorRefusals,
  expectCursorWalksMatchPages,
  startTestArea,
  type PagedRoute,
  type TestArea,
} from '@ledger-api/runtime/testing';
import { nftExchangeArea } from './service';

/** Each exchange list and search, the orders it is walked in, and a page size that makes it span several pages. */
const ROUTES: [PagedRoute, string[], number][] = [
  [{ method: 'GET', path: '/nft/exchange/auctions' }, ['', 'orderBy=startAmount:desc', 'orderBy=expiration.blockHeight:asc'], 7],
  [{ method: 'GET', path: '/nft/exchange/auctions', query: 'expired=false' }, ['orderBy=senderPublicKey:desc'], 3],
  [{ method: 'POST', path: '/nft/exchange/auctions/search', body: {}, query: 'includeBids=true' }, ['', 'orderBy=startAmount:asc'], 7],
  [{ method: 'GET', path: '/nft/exchange/auctions/canceled' }, ['', 'orderBy=fee:desc'], 3],
  [{ method: 'GET', path: '/nft/exchange/bids' }, ['', 'orderBy=bidAmount:desc', 'orderBy=amount:asc'], 7],
  [{ method: 'POST', path: '/nft/exchange/bids/search', body: {} }, ['orderBy=bidAmount:asc', 'orderBy=id:desc'], 7],
  [{ method: 'GET', path: '/nft/exchange/bids/canceled', query: 'transform=false' }, ['', 'orderBy=nonce:desc'], 3],
  [{ method: 'GET', path: '/nft/exchange/trades' }, ['', 'orderBy=timestamp:desc'], 7],
  [{ method: 'POST', path: '/nft/exchange/trades/search', body: {} }, ['orderBy=sequence:asc'], 3],
];

/** Keyset paging of every exchange list and search on the demo ledger, against page paging. */
describe('cursor paging on the demo ledger', () => {
  let area: TestArea;

  beforeAll(async () => {
    area = await startTestArea(nftExchangeArea, generateDemoLedger({ blockCount: 120 }));
  });
  afterAll(() => area.close());

  it('lists the pages of page paging walking next from the first page, and walking previous from the last', async () => {
    for (const [route, orders, limit] of ROUTES) {
      for (const order of orders) await expectCursorWalksMatchPages(area, route, [order, `limit=${limit}`].filter(Boolean).join('&'));
    }
  });

  it('refuses malformed cursors, cursors of another order, and page or offset beside a cursor', async () => {
    for (const [route] of ROUTES) {
      const { body } = await area.request(route.method, `${route.path}?orderBy=fee:asc&cursor=`, route.body);
      await expectCursorRefusals(area, route, cursorOf(body.meta.last)!);
    }
  });
});
