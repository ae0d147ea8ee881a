import { generateDemoLedger } from '@ledger-api/demo-ledger';
import {
  cursorOf,
  expectCursorRefusals,
  expectCursorWalksMatchPages,
  startTestArea,
  type PagedRoute,
  type TestArea,
} from '@ledger-api/runtime/testing';
import { guardianArea } from './service';

const groups: PagedRoute = { method: 'GET', path: '/guardian/groups' };
const users: PagedRoute = { method: 'GET', path: '/guardian/users' };

/** Keyset paging of both Guardian lists on the demo ledger, against page paging; small pages, so each list spans several. */
describe('cursor paging on the demo ledger', () => {
  let area: TestArea;

  beforeAll(async () => {
    area = await startTestArea(guardianArea, generateDemoLedger({ blockCount: 60 }));
  });
  afterAll(() => area.close());

  it('lists the pages of page paging walking next from the first page, and walking previous from the last', async () => {
    for (const order of ['', 'orderBy=name:desc', 'orderBy=priority:desc', 'orderBy=active:asc', 'orderBy=default:desc']) {
      await expectCursorWalksMatchPages(area, groups, [order, 'limit=3'].filter(Boolean).join('&'));
    }
    await expectCursorWalksMatchPages(area, groups, 'name=%25a%25&orderBy=priority:asc&limit=2');
    await expectCursorWalksMatchPages(area, users, 'limit=7');
  });

  it('refuses malformed cursors, cursors of another order or list, and page or offset beside a cursor', async () => {
    const byPriority = (await area.request('GET', '/guardian/groups?orderBy=priority:asc&cursor=')).body.meta.last;
    await expectCursorRefusals(area, groups, cursorOf(byPriority)!);
    await expectCursorRefusals(area, users, cursorOf((await area.request('GET', '/guardian/groups?cursor=')).body.meta.last)!);
  });
});
