import { listQuerySchema, type ListConfig } from './paging';
import { validate } from './validation';

const assets = {
  filters: {},
  orderable: { timestamp: 'blockHeight', fee: 'sortKeys.fee' },
  defaultOrder: { blockHeight: 1, sequence: 1 },
  transform: true,
  totalCountIsEstimate: true,
} satisfies ListConfig;

describe('orderBy', () => {
  it('reads the API field as the stored field it stands for', () => {
    const query = validate(listQuerySchema(assets), { orderBy: 'fee:desc', page: '3', limit: '5' });
    expect(query).toMatchObject({ orderBy: { field: 'sortKeys.fee', direction: 'desc' }, page: 3, limit: 5 });
  });

  it('takes only the API names, not the stored fields or inherited names', () => {
    for (const orderBy of ['sortKeys.fee:asc', 'toString:asc', '__proto__:desc']) {
      expect(() => validate(listQuerySchema(assets), { orderBy })).toThrow(`Unknown orderBy property '${orderBy.split(':')[0]}'`);
    }
  });
});
