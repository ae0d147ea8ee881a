import { EmbeddedStore } from './embedded-store';
import type { Doc, KeysetPosition, Page, PageSource } from './types';
import { findPage, findWindow, type FieldOrder } from './window';

const ledgerOrder = { blockHeight: 1, sequence: 1 } as const;

describe('findWindow', () => {
  it('sorts on the requested field, then on the default order', () => {
    const request = { orderBy: { field: 'sortKeys.fee', direction: 'desc' as const }, page: 3, limit: 5 };
    expect(findWindow(request, ledgerOrder)).toEqual({ sort: { 'sortKeys.fee': -1, blockHeight: 1, sequence: 1 }, skip: 10, limit: 5 });
  });

  it('lets a non-zero offset replace the page', () => {
    expect(findWindow({ offset: 7, page: 3, limit: 5 }, ledgerOrder).skip).toBe(7);
  });

  it('keeps the requested direction when the field is also in the default order', () => {
    const request = { orderBy: { field: 'blockHeight', direction: 'desc' as const }, page: 1, limit: 10 };
    expect(findWindow(request, ledgerOrder)).toEqual({ sort: { blockHeight: -1, sequence: 1 }, skip: 0, limit: 10 });
  });
});

describe('findWindow on ids', () => {
  it('adds no tie-breaker after _id, which never ties', () => {
    const request = { orderBy: { field: '_id', direction: 'desc' as const }, page: 1, limit: 10 };
    expect(findWindow(request, ledgerOrder).sort).toEqual({ _id: -1 });
  });
});

describe('findPage', () => {
  const source = (): PageSource<string> & { counts: string[] } => {
    const counts: string[] = [];
    return {
      counts,
      find: async () => ['a'],
      count: async (filter) => (counts.push(`count ${JSON.stringify(filter)}`), 7),
      estimatedCount: async () => (counts.push('estimate'), 8),
    };
  };

  it('uses the collection estimate only where the list allows an estimate and nothing filters it', async () => {
    const estimated = { defaultOrder: ledgerOrder, totalCountIsEstimate: true };
    const exact = { defaultOrder: ledgerOrder, totalCountIsEstimate: false };
    const request = { page: 1, limit: 10 };
    const cases = [
      [estimated, {}, 'estimate', 8],
      [estimated, { status: { $eq: 'active' } }, 'count {"status":{"$eq":"active"}}', 7],
      [exact, {}, 'count {}', 7],
    ] as const;
    for (const [list, filter, counted, totalCount] of cases) {
      const pages = source();
      expect(await findPage(pages, filter, request, list)).toEqual({ items: ['a'], totalCount });
      expect(pages.counts).toEqual([counted]);
    }
  });
});

describe('findPage with a keyset position', () => {
  const list = { defaultOrder: ledgerOrder };
  const limit = 5;
  let source: PageSource<Doc>;

  beforeAll(async () => {
    const store = new EmbeddedStore();
    // 23 records over 8 blocks; fees tie across blocks.
    const docs = Array.from({ length: 23 }, (_, i) => ({ _id: `t${i}`, blockHeight: 1 + Math.floor(i / 3), sequence: i % 3, fee: `000${i % 4}` }));
    await store.applyWrites(docs.map((doc) => ({ collection: 'records', id: doc._id, doc })));
    source = store.collection('records');
  });

  const ids = (page: Page<Doc>) => page.items.map((doc) => doc._id);
  const read = (cursor: KeysetPosition, orderBy?: FieldOrder) => findPage(source, {}, { page: 1, limit, cursor, ...(orderBy && { orderBy }) }, list);

  async function numberedPages(orderBy?: FieldOrder): Promise<string[][]> {
    const pages: string[][] = [];
    for (let page = 1; page <= 5; page++) pages.push(ids(await findPage(source, {}, { page, limit, ...(orderBy && { orderBy }) }, list)));
    return pages;
  }

  async function walk(start: KeysetPosition, way: 'next' | 'previous', orderBy?: FieldOrder): Promise<string[][]> {
    const pages: string[][] = [];
    for (let position: KeysetPosition | null = start; position;) {
      const page: Page<Doc> = await read(position, orderBy);
      pages.push(ids(page));
      position = page.adjacent![way];
    }
    return pages;
  }

  const orders: (FieldOrder | undefined)[] = [
    undefined,
    { field: 'fee', direction: 'asc' },
    { field: 'fee', direction: 'desc' },
    { field: '_id', direction: 'desc' },
  ];

  it('walks forward from the first page through exactly the pages of page paging', async () => {
    for (const orderBy of orders) expect(await walk({ kind: 'first' }, 'next', orderBy)).toEqual(await numberedPages(orderBy));
  });

  it('walks back from the last page through the same pages in reverse, the last one as short as page paging makes it', async () => {
    for (const orderBy of orders) expect(await walk({ kind: 'last' }, 'previous', orderBy)).toEqual((await numberedPages(orderBy)).reverse());
  });

  it('links the pages of a walk both ways', async () => {
    const first = await read({ kind: 'first' });
    expect(first).toMatchObject({ totalCount: 23, adjacent: { previous: null, next: { kind: 'after', values: [2, 1] } } });
    const second = await read(first.adjacent!.next!);
    expect(ids(second)).toEqual(['t5', 't6', 't7', 't8', 't9']);
    expect(second.adjacent).toEqual({ previous: { kind: 'before', values: [2, 2] }, next: { kind: 'after', values: [4, 0] } });
    expect(ids(await read(second.adjacent!.previous!))).toEqual(ids(first));
    const last = await read({ kind: 'last' });
    expect(last.adjacent).toEqual({ previous: { kind: 'before', values: [7, 2] }, next: null });
  });

  it('leads back to the last page from past the end, and nowhere from an empty list', async () => {
    const pastTheEnd = await read({ kind: 'after', values: [8, 1] });
    expect(pastTheEnd).toEqual({ items: [], totalCount: 23, adjacent: { next: null, previous: { kind: 'last' } } });
    const nothing = await findPage(source, { blockHeight: { $eq: 99 } }, { page: 1, limit, cursor: { kind: 'last' } }, list);
    expect(nothing).toEqual({ items: [], totalCount: 0, adjacent: { next: null, previous: null } });
  });
});
