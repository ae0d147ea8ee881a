import type { Transaction } from '@ledger-api/ledger';
import { NftLedgerBuilder, type TransactionOptions } from '@ledger-api/nft-read-model/testing';
import type { TestArea } from '@ledger-api/runtime/testing';
import { ids, startNftBase } from './testing/gallery';

/** Five records per resource, with amounts on both sides of 2^53 and ties that fall back to ledger order. */
const RECORDS: Array<TransactionOptions & { sender: string; name: string; maximumSupply: number }> = [
  { sender: 'ann', name: 'b', maximumSupply: 10, fee: '9007199254740993', amount: '5', nonce: '100000000000000000001' },
  { sender: 'ben', name: 'B', maximumSupply: 9, fee: '9007199254740992', amount: '5', nonce: '2' },
  { sender: 'ann', name: 'a', maximumSupply: 10, fee: '10', amount: '100000000000000000000', nonce: '30' },
  { sender: 'cid', name: 'é', maximumSupply: 1000, fee: '10', amount: '0', nonce: '4' },
  { sender: 'ben', name: 'a', maximumSupply: 2, fee: '99', amount: '18446744073709551616', nonce: '9' },
];
/** Records per block: the third block holds two, so sequence and ledger order differ from heights. */
const BLOCK_SIZES = [1, 1, 2, 1];

interface Placed {
  id: string;
  senderPublicKey: string;
  height: number;
  sequence: number;
  options: (typeof RECORDS)[number];
}

const ledger = new NftLedgerBuilder();
const placed: Record<'collections' | 'assets' | 'transfers' | 'burns', Placed[]> = { collections: [], assets: [], transfers: [], burns: [] };

function addBlocks(kind: keyof typeof placed, make: (index: number) => Transaction): void {
  let index = 0;
  for (const size of BLOCK_SIZES) {
    const txs = Array.from({ length: size }, () => make(index++));
    ledger.block(...txs);
    txs.forEach((tx, sequence) =>
      placed[kind].push({ id: tx.id, senderPublicKey: tx.senderPublicKey, height: ledger.height, sequence, options: RECORDS[placed[kind].length] }),
    );
  }
}

const owner = ledger.wallet('owner');
addBlocks('collections', (i) => {
  const { sender, name, maximumSupply, ...options } = RECORDS[i];
  return ledger.collection(ledger.wallet(sender), { name, description: 'Ordering', maximumSupply, jsonSchema: {} }, options);
});
addBlocks('assets', (i) => {
  const { sender, name: _name, maximumSupply: _supply, ...options } = RECORDS[i];
  return ledger.token(ledger.wallet(sender), placed.collections[0].id, { index: i }, owner.address, options);
});
addBlocks('transfers', (i) => {
  const { sender, name: _name, maximumSupply: _supply, ...options } = RECORDS[i];
  return ledger.transfer(ledger.wallet(sender), [placed.assets[i].id], owner.address, options);
});
addBlocks('burns', (i) => {
  const { sender, name: _name, maximumSupply: _supply, ...options } = RECORDS[i];
  return ledger.burn(ledger.wallet(sender), placed.assets[i].id, options);
});

const byNumber = (field: 'nonce' | 'fee' | 'amount') => (a: Placed, b: Placed) => {
  const [x, y] = [BigInt(a.options[field]!), BigInt(b.options[field]!)];
  return x < y ? -1 : x > y ? 1 : 0;
};
const byText = (read: (record: Placed) => string) => (a: Placed, b: Placed) => (read(a) < read(b) ? -1 : read(a) > read(b) ? 1 : 0);
const ledgerOrder = (a: Placed, b: Placed) => a.height - b.height || a.sequence - b.sequence;

const COMPARATORS: Record<string, (a: Placed, b: Placed) => number> = {
  id: byText((record) => record.id),
  senderPublicKey: byText((record) => record.senderPublicKey),
  timestamp: (a, b) => a.height - b.height,
  blockHeight: (a, b) => a.height - b.height,
  sequence: (a, b) => a.sequence - b.sequence,
  nonce: byNumber('nonce'),
  fee: byNumber('fee'),
  amount: byNumber('amount'),
};
const COLLECTION_COMPARATORS = {
  name: byText((record) => record.options.name),
  maximumSupply: (a: Placed, b: Placed) => a.options.maximumSupply - b.options.maximumSupply,
};

/** The expected order: the field in the asked direction, ties in ascending ledger order. */
function expectedIds(records: Placed[], compare: (a: Placed, b: Placed) => number, direction: 'asc' | 'desc'): string[] {
  const sign = direction === 'asc' ? 1 : -1;
  return [...records].sort((a, b) => sign * compare(a, b) || ledgerOrder(a, b)).map((record) => record.id);
}

let area: TestArea;
beforeAll(async () => {
  area = await startNftBase(ledger.events);
});
afterAll(() => area.close());

const cases = [
  ...Object.entries({ ...COMPARATORS, ...COLLECTION_COMPARATORS }).map(([field, compare]) => ['collections', field, compare] as const),
  ...Object.entries(COMPARATORS).flatMap(([field, compare]) =>
    (['assets', 'transfers', 'burns'] as const).map((kind) => [kind, field, compare] as const),
  ),
];

describe.each(['asc', 'desc'] as const)('orderBy=<field>:%s', (direction) => {
  it.each(cases)('orders /nft/%s by %s', async (kind, field, compare) => {
    const { status, body } = await area.request('GET', `/nft/${kind}?orderBy=${field}:${direction}`);
    expect(status).toBe(200);
    expect(ids(body)).toEqual(expectedIds(placed[kind], compare, direction));
  });
});

describe('ordering and paging', () => {
  it('defaults to ledger order', async () => {
    for (const kind of ['collections', 'assets', 'transfers', 'burns'] as const) {
      expect(ids((await area.request('GET', `/nft/${kind}`)).body)).toEqual([...placed[kind]].sort(ledgerOrder).map((record) => record.id));
    }
  });

  it('pages a sorted list without gaps or repeats, with links that keep orderBy', async () => {
    const pages = [];
    for (let page = 1; page <= 3; page++) {
      const { body } = await area.request('GET', `/nft/assets?orderBy=fee:desc&limit=2&page=${page}`);
      pages.push(...ids(body));
      expect(body.meta).toMatchObject({ pageCount: 3, totalCount: 5, self: `/nft/assets?orderBy=fee%3Adesc&limit=2&page=${page}&transform=true` });
    }
    expect(pages).toEqual(expectedIds(placed.assets, COMPARATORS.fee, 'desc'));
  });

  it('takes an offset instead of the page, keeping page-based links', async () => {
    const { body } = await area.request('GET', '/nft/burns?offset=3&limit=2');
    expect(ids(body)).toEqual(placed.burns.slice(3).map((record) => record.id));
    expect(body.meta).toMatchObject({
      count: 2,
      self: '/nft/burns?offset=3&limit=2&transform=true&page=1',
      next: '/nft/burns?offset=3&limit=2&transform=true&page=2',
    });
  });

  it.each([
    ['/nft/collections?orderBy=name', '"orderBy" with value "name" fails to match the orderBy query parameter (<iteratee>:<direction>) pattern'],
    [
      '/nft/collections?orderBy=name:DESC',
      '"orderBy" with value "name:DESC" fails to match the orderBy query parameter (<iteratee>:<direction>) pattern',
    ],
    ['/nft/assets?orderBy=name:asc', "Unknown orderBy property 'name'"],
    ['/nft/burns?orderBy=maximumSupply:asc', "Unknown orderBy property 'maximumSupply'"],
    ['/nft/assets?limit=101', '"limit" must be less than or equal to 100'],
    ['/nft/assets?page=0', '"page" must be a positive number'],
    ['/nft/assets?page=1.5', '"page" must be an integer'],
    ['/nft/burns?offset=-1', '"offset" must be greater than or equal to 0'],
    ['/nft/burns?transform=yes', '"transform" must be a boolean'],
    ['/nft/transfers?orderBy=name:asc', "Unknown orderBy property 'name'"],
    ['/nft/transfers?limit=0', '"limit" must be greater than or equal to 1'],
    ['/nft/transfers?cursor=x', '"cursor" is invalid'],
    ['/nft/transfers?recipientId=x', '"recipientId" is not allowed'],
    ['/nft/collections?name=Cards', '"name" is not allowed'],
  ])('answers 422 for %s', async (path, message) => {
    expect(await area.request('GET', path)).toMatchObject({ status: 422, body: { statusCode: 422, error: 'Unprocessable Entity', message } });
  });
});
