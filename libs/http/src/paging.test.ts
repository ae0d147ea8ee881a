import { z } from 'zod';
import { listQuerySchema, pagedEnvelope, type ListConfig } from './paging';
import { validate } from './validation';

const groups = {
  filters: { name: z.string().optional() },
  orderable: { name: 'name', priority: 'priority' },
  defaultOrder: { name: 1 },
  transform: false,
  totalCountIsEstimate: false,
} satisfies ListConfig;

const assets = {
  filters: {},
  orderable: { timestamp: 'blockHeight', fee: 'sortKeys.fee' },
  defaultOrder: { blockHeight: 1, sequence: 1 },
  transform: true,
  totalCountIsEstimate: true,
} satisfies ListConfig;

function envelope(config: typeof groups | typeof assets, path: string, queryString: string, total: number) {
  const queryPairs = [...new URLSearchParams(queryString)];
  const query = validate(listQuerySchema(config), Object.fromEntries(queryPairs));
  return pagedEnvelope({ path, queryPairs }, config, query, { totalCount: total }, [], { height: 7, blockId: '' }).meta;
}

describe('paged envelope links', () => {
  it('adds page and limit defaults after the keys the client sent', () => {
    const meta = envelope(groups, '/guardian/groups', 'name=Test%25', 3);
    expect(meta.self).toBe('/guardian/groups?name=Test%25&page=1&limit=100');
    expect(meta).toMatchObject({ totalCountIsEstimate: false, pageCount: 1, totalCount: 3, next: null, previous: null });
  });

  it('puts transform first among the defaults on NFT routes', () => {
    expect(envelope(assets, '/nft/collections', '', 0).self).toBe('/nft/collections?transform=true&page=1&limit=100');
  });

  it('keeps the client order and values and sets the target page', () => {
    const meta = envelope(assets, '/nft/assets', 'orderBy=timestamp:desc&limit=10&page=2', 35);
    expect(meta.self).toBe('/nft/assets?orderBy=timestamp%3Adesc&limit=10&page=2&transform=true');
    expect(meta.next).toBe('/nft/assets?orderBy=timestamp%3Adesc&limit=10&page=3&transform=true');
    expect(meta.previous).toBe('/nft/assets?orderBy=timestamp%3Adesc&limit=10&page=1&transform=true');
    expect(meta.last).toBe('/nft/assets?orderBy=timestamp%3Adesc&limit=10&page=4&transform=true');
    expect(meta.pageCount).toBe(4);
  });

  it('links back from one page past the end but not further', () => {
    expect(envelope(groups, '/g', 'page=3&limit=10', 20).previous).toBe('/g?page=2&limit=10');
    expect(envelope(groups, '/g', 'page=4&limit=10', 20).previous).toBeNull();
    expect(envelope(groups, '/g', 'page=2', 0).previous).toBeNull();
  });

  it('has one page when there is nothing to list', () => {
    expect(envelope(groups, '/g', '', 0)).toMatchObject({ pageCount: 1, count: 0, next: null, last: '/g?page=1&limit=100' });
  });
});
