import { findWindow } from './window';

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
