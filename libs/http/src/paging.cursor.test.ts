import { ApiError } from '@ledger-api/http-core';
import type { AdjacentPages } from '@ledger-api/store';
import type { z } from 'zod';
import { decodeCursor, encodeCursor } from './cursor';

/** The block the pages are read at. */
const AT = { height: 7, blockId: 'c'.repeat(64) };
import { booleanParam } from './fields';
import { listQuerySchema, pagedEnvelope, type ListConfig, type PagingQuery } from './paging';
import { validate } from './validation';

const assets = {
  filters: {},
  orderable: { id: '_id', fee: 'sortKeys.fee' },
  defaultOrder: { blockHeight: 1, sequence: 1 },
  transform: true,
  totalCountIsEstimate: true,
} satisfies ListConfig;

const wallets = {
  filters: { inAuction: booleanParam().default(false) },
  orderable: {},
  defaultOrder: { blockHeight: 1, sequence: 1 },
  transform: true,
  linkFlags: { inAuction: 'false' },
  totalCountIsEstimate: true,
} satisfies ListConfig;

const ledgerSort = { blockHeight: 1, sequence: 1 } as const;
const feeDescSort = { 'sortKeys.fee': -1, blockHeight: 1, sequence: 1 } as const;

/** The paging fields of a validated query; a config typed as any list's leaves its filters' shape open. */
const parse = (config: ListConfig, queryString: string) =>
  validate(listQuerySchema(config) as unknown as z.ZodType<PagingQuery>, Object.fromEntries(new URLSearchParams(queryString)));

function refusal(config: ListConfig, queryString: string): string {
  try {
    parse(config, queryString);
  } catch (error) {
    if (error instanceof ApiError && error.status === 422) return error.message;
    throw error;
  }
  throw new Error(`${queryString} was accepted`);
}

describe('the cursor of a list query', () => {
  it('reads the empty cursor as the first page and a token as its position, leaving page to its default', () => {
    expect(parse(assets, 'cursor=')).toMatchObject({ cursor: { kind: 'first' }, page: 1, limit: 100 });
    const token = encodeCursor({ kind: 'after', values: ['0004', 7, 1] }, feeDescSort, AT);
    expect(parse(assets, `orderBy=fee:desc&limit=7&cursor=${token}`)).toMatchObject({ cursor: decodeCursor(token), limit: 7 });
    expect(parse(assets, '')).toMatchObject({ page: 1 });
    expect(parse(assets, '')).not.toHaveProperty('cursor');
  });

  it('refuses page or offset beside a cursor, whatever their values', () => {
    expect(refusal(assets, 'cursor=&page=1')).toBe('"page" is not allowed with "cursor"');
    expect(refusal(assets, 'offset=0&cursor=')).toBe('"offset" is not allowed with "cursor"');
    expect(refusal(assets, 'page=2&offset=3&cursor=')).toBe('"page" is not allowed with "cursor"');
  });

  it('refuses a malformed cursor, and one made for another order or list shape', () => {
    const ledgerToken = encodeCursor({ kind: 'after', values: [7, 1] }, ledgerSort, AT);
    expect(refusal(assets, 'cursor=abc')).toBe('"cursor" is invalid');
    expect(refusal(assets, `cursor=${ledgerToken}x`)).toBe('"cursor" is invalid');
    expect(refusal(assets, `orderBy=fee:desc&cursor=${ledgerToken}`)).toBe('"cursor" is invalid');
    expect(refusal(assets, `orderBy=id:asc&cursor=${encodeCursor({ kind: 'last' }, ledgerSort, AT)}`)).toBe('"cursor" is invalid');
    expect(refusal(assets, `cursor=${encodeCursor({ kind: 'after', values: [7, 1, 'x'] }, ledgerSort, AT)}`)).toBe('"cursor" is invalid');
    expect(parse(assets, `cursor=${ledgerToken}`).cursor).toEqual(decodeCursor(ledgerToken));
  });

  it('checks the query parameters themselves before the cursor rules', () => {
    expect(refusal(assets, 'cursor=abc&page=0')).toBe('"page" must be a positive number');
    // A repeated key arrives as an array.
    expect(() => validate(listQuerySchema(assets), { cursor: ['', ''] })).toThrow('"cursor" must be a string');
  });
});

describe('the links of a keyset page', () => {
  const adjacent: AdjacentPages = { next: { kind: 'after', values: ['0003', 9, 0] }, previous: { kind: 'before', values: ['0009', 2, 1] } };

  function envelope<F extends z.ZodRawShape>(
    config: ListConfig<F>,
    path: string,
    queryString: string,
    page: { totalCount: number; adjacent?: AdjacentPages },
  ) {
    const queryPairs = [...new URLSearchParams(queryString)];
    return pagedEnvelope({ path, queryPairs }, config, parse(config, queryString), page, ['x'], AT).meta;
  }

  it('keeps the keys sent, then the defaults but page, and puts the target token in the cursor', () => {
    const meta = envelope(assets, '/nft/assets', 'orderBy=fee:desc&cursor=&limit=7', { totalCount: 20, adjacent });
    const link = (position: Parameters<typeof encodeCursor>[0]) =>
      `/nft/assets?orderBy=fee%3Adesc&cursor=${encodeCursor(position, feeDescSort, AT)}&limit=7&transform=true`;
    expect(meta).toEqual({
      totalCountIsEstimate: true,
      count: 1,
      pageCount: 3,
      totalCount: 20,
      next: link(adjacent.next!),
      previous: link(adjacent.previous!),
      self: '/nft/assets?orderBy=fee%3Adesc&cursor=&limit=7&transform=true',
      first: '/nft/assets?orderBy=fee%3Adesc&cursor=&limit=7&transform=true',
      last: link({ kind: 'last' }),
    });
  });

  it('adds route flags and the limit after the keys sent, and keeps the cursor as sent in self', () => {
    const token = encodeCursor({ kind: 'before', values: [4, 0] }, ledgerSort, AT);
    const meta = envelope(wallets, '/nft/assets/wallet/k', `cursor=${token}`, { totalCount: 0, adjacent: { next: null, previous: null } });
    expect(meta.self).toBe(`/nft/assets/wallet/k?cursor=${token}&transform=true&inAuction=false&limit=100`);
    expect(meta).toMatchObject({ next: null, previous: null, pageCount: 1 });
  });

  it('fails loudly when the read behind a cursor request was not a keyset read', () => {
    expect(() => envelope(assets, '/nft/assets', 'cursor=', { totalCount: 3 })).toThrow('needs a keyset read');
  });
});
