import { findPage, findWindow, type PageSource } from './window';

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
