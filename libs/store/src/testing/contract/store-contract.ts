import type { Doc, Store, Write } from '../../types';
import { describeKeysetContract } from './keyset-contract';

/** A fresh, empty store and how to dispose of it (close, drop the test database). */
export interface StoreFixture {
  store: Store;
  dispose(): Promise<void>;
}

const ITEMS = 'items';

interface Item extends Doc {
  name?: string;
  height?: number;
  seq?: number;
  owner?: { key: string; tier: number };
  tags?: string[];
  bids?: { amount: number; active: boolean }[];
  meta?: Record<string, unknown>;
}

const ITEM_DOCS: Item[] = [
  {
    _id: 'a',
    name: 'Alpha',
    height: 3,
    seq: 1,
    owner: { key: 'k1', tier: 1 },
    tags: ['red', 'blue'],
    bids: [{ amount: 5, active: true }],
    meta: { x: 1, y: 2 },
  },
  {
    _id: 'b',
    name: 'alpha',
    height: 1,
    seq: 2,
    owner: { key: 'k2', tier: 2 },
    tags: ['blue'],
    bids: [
      { amount: 5, active: false },
      { amount: 9, active: true },
    ],
  },
  { _id: 'c', name: 'Beta', height: 3, seq: 0, owner: { key: 'k1', tier: 2 }, tags: [], meta: { x: 1 } },
  { _id: 'd', name: 'beta', height: 2, seq: 5, tags: ['green', 'red', 'blue'] },
  { _id: 'e', height: 3, seq: 1, owner: { key: 'k3', tier: 1 }, bids: [{ amount: 2, active: true }] },
  { _id: 'f', name: 'Zeta', height: 1, seq: 9, meta: { $gt: 1 } },
];

const put = (collection: string, doc: Doc): Write => ({ collection, id: doc._id, doc });
const remove = (collection: string, id: string): Write => ({ collection, id, doc: null });

/** Asserts the behaviour every Store adapter must share; run once per adapter. */
export function describeStoreContract(createFixture: () => Promise<StoreFixture>): void {
  let fixture: StoreFixture;
  let store: Store;
  const ids = (docs: Doc[]) => docs.map((doc) => doc._id);
  const matchIds = async (filter: Record<string, unknown>) => ids(await store.collection(ITEMS).find(filter, { sort: { _id: 1 } }));

  beforeEach(async () => {
    fixture = await createFixture();
    store = fixture.store;
    await store.ensureCollections([{ name: ITEMS, indexes: [{ key: { 'owner.key': 1, seq: 1 } }, { key: { tags: 1 } }, { key: { name: 1 } }] }]);
    await store.applyWrites(ITEM_DOCS.map((doc) => put(ITEMS, doc)));
  });

  afterEach(async () => {
    await fixture.dispose();
  });

  describe('lookups', () => {
    it('finds a document by id, and null for an unknown id', async () => {
      expect(await store.collection<Item>(ITEMS).findById('c')).toEqual(ITEM_DOCS[2]);
      expect(await store.collection(ITEMS).findById('nope')).toBeNull();
    });

    it('answers an unknown collection with nothing', async () => {
      const missing = store.collection('never-written');
      expect(await missing.find({})).toEqual([]);
      expect(await missing.count({})).toBe(0);
      expect(await missing.estimatedCount()).toBe(0);
      expect(await missing.findById('a')).toBeNull();
    });

    it('returns the first document in sort order from findOne', async () => {
      expect((await store.collection(ITEMS).findOne({ height: 3 }, { sort: { seq: -1, _id: 1 } }))?._id).toBe('a');
      expect(await store.collection(ITEMS).findOne({ height: 42 })).toBeNull();
    });
  });

  describe('query operators', () => {
    it('matches equality on nested dotted paths', async () => {
      expect(await matchIds({ 'owner.key': 'k1' })).toEqual(['a', 'c']);
      expect(await matchIds({ 'owner.key': 'k1', 'owner.tier': 2 })).toEqual(['c']);
    });

    it('matches $in, $all and a plain value against array members', async () => {
      expect(await matchIds({ name: { $in: ['Beta', 'Zeta', 'Omega'] } })).toEqual(['c', 'f']);
      expect(await matchIds({ tags: { $all: ['red', 'blue'] } })).toEqual(['a', 'd']);
      expect(await matchIds({ tags: 'blue' })).toEqual(['a', 'b', 'd']);
      expect(await matchIds({ tags: { $in: ['green', 'red'] } })).toEqual(['a', 'd']);
    });

    it('matches $elemMatch on one array element satisfying every condition', async () => {
      expect(await matchIds({ bids: { $elemMatch: { amount: 5, active: true } } })).toEqual(['a']);
      expect(await matchIds({ bids: { $elemMatch: { amount: { $gte: 5 }, active: true } } })).toEqual(['a', 'b']);
    });

    it('matches $regex with the case-insensitive option', async () => {
      expect(await matchIds({ name: { $regex: '^alp', $options: 'i' } })).toEqual(['a', 'b']);
      expect(await matchIds({ name: { $regex: '^alp' } })).toEqual(['b']);
      expect(await matchIds({ name: { $regex: 'ET', $options: 'i' } })).toEqual(['c', 'd', 'f']);
    });

    it('matches $exists both ways', async () => {
      expect(await matchIds({ name: { $exists: false } })).toEqual(['e']);
      expect(await matchIds({ 'owner.key': { $exists: true } })).toEqual(['a', 'b', 'c', 'e']);
    });

    it('combines conditions with $and and $or', async () => {
      expect(await matchIds({ $or: [{ height: 1 }, { 'owner.key': 'k3' }] })).toEqual(['b', 'e', 'f']);
      expect(await matchIds({ $and: [{ height: 3 }, { $or: [{ seq: 0 }, { name: { $exists: false } }] }] })).toEqual(['c', 'e']);
    });

    it('compares strings with $gt, $gte, $lt and $lte by code unit', async () => {
      expect(await matchIds({ name: { $gt: 'Zeta' } })).toEqual(['b', 'd']);
      expect(await matchIds({ name: { $gte: 'Beta', $lt: 'alpha' } })).toEqual(['c', 'f']);
      expect(await matchIds({ name: { $lte: 'Alpha' } })).toEqual(['a']);
    });

    it('matches embedded objects by whole-value equality', async () => {
      expect(await matchIds({ owner: { key: 'k1', tier: 2 } })).toEqual(['c']);
      expect(await matchIds({ meta: { x: 1 } })).toEqual(['c']);
    });

    it('treats operator-shaped values stored in documents as data', async () => {
      expect(await matchIds({ meta: { $eq: { $gt: 1 } } })).toEqual(['f']);
      expect(await matchIds({ meta: { $eq: { x: 1 } } })).toEqual(['c']);
    });
  });

  describe('sorting and paging', () => {
    it('sorts on several keys in key order, breaking ties with the later keys', async () => {
      const docs = await store.collection(ITEMS).find({}, { sort: { height: -1, seq: 1, _id: -1 } });
      expect(ids(docs)).toEqual(['c', 'e', 'a', 'd', 'b', 'f']);
    });

    it('sorts strings by code unit with missing fields first ascending and last descending', async () => {
      expect(ids(await store.collection(ITEMS).find({}, { sort: { name: 1 } }))).toEqual(['e', 'a', 'c', 'f', 'b', 'd']);
      expect(ids(await store.collection(ITEMS).find({}, { sort: { name: -1 } }))).toEqual(['d', 'b', 'f', 'c', 'a', 'e']);
    });

    it('sorts mixed types in MongoDB type order, missing and null together first', async () => {
      const values: [string, unknown][] = [
        ['1', true],
        ['2', 'b'],
        ['3', 10],
        ['4', null],
        ['5', { k: 1 }],
        ['6', 2],
        ['7', false],
        ['8', 'a'],
      ];
      await store.applyWrites([...values.map(([id, value]) => put('mixed', { _id: id, value })), put('mixed', { _id: '9' })]);
      const docs = await store.collection('mixed').find({}, { sort: { value: 1, _id: 1 } });
      expect(ids(docs)).toEqual(['4', '9', '6', '3', '8', '2', '5', '7', '1']);
    });

    it('sorts on a nested path', async () => {
      const docs = await store.collection(ITEMS).find({ 'owner.tier': { $exists: true } }, { sort: { 'owner.tier': -1, 'owner.key': 1, _id: 1 } });
      expect(ids(docs)).toEqual(['c', 'b', 'a', 'e']);
    });

    it('applies skip and limit after sorting, and reads limit 0 as no limit', async () => {
      const collection = store.collection(ITEMS);
      expect(ids(await collection.find({}, { sort: { _id: 1 }, skip: 2, limit: 2 }))).toEqual(['c', 'd']);
      expect(ids(await collection.find({}, { sort: { _id: 1 }, skip: 5, limit: 10 }))).toEqual(['f']);
      expect(ids(await collection.find({}, { sort: { _id: 1 }, skip: 10 }))).toEqual([]);
      expect(ids(await collection.find({ height: 3 }, { sort: { _id: -1 }, limit: 0 }))).toEqual(['e', 'c', 'a']);
    });

    it('counts all documents or only the matching ones', async () => {
      const collection = store.collection(ITEMS);
      expect(await collection.count({})).toBe(6);
      expect(await collection.count({ tags: 'blue' })).toBe(3);
      expect(await collection.count({ 'owner.key': 'k1', height: 3 })).toBe(2);
    });

    it('estimates the size of the whole collection, which without an unclean shutdown is its count', async () => {
      expect(await store.collection(ITEMS).estimatedCount()).toBe(6);
      await store.applyWrites([remove(ITEMS, 'a'), put(ITEMS, { _id: 'z' }), put(ITEMS, { _id: 'y' })]);
      expect(await store.collection(ITEMS).estimatedCount()).toBe(7);
    });

    it('accepts a wildcard index beside plain ones', async () => {
      await store.ensureCollections([{ name: ITEMS, indexes: [{ key: { 'meta.$**': 1 } }] }]);
      expect(await matchIds({ 'meta.x': 1 })).toEqual(['a', 'c']);
    });
  });

  describe('writes', () => {
    it('upserts, replaces whole documents and deletes, in order within one batch', async () => {
      await store.applyWrites([
        put(ITEMS, { _id: 'g', name: 'Gamma' }),
        put(ITEMS, { _id: 'a', name: 'Replaced' }),
        remove(ITEMS, 'g'),
        put(ITEMS, { _id: 'g', name: 'Gamma again' }),
        remove(ITEMS, 'b'),
        remove(ITEMS, 'missing'),
      ]);
      const collection = store.collection<Item>(ITEMS);
      expect(await collection.findById('a')).toEqual({ _id: 'a', name: 'Replaced' });
      expect(await collection.findById('g')).toEqual({ _id: 'g', name: 'Gamma again' });
      expect(await collection.findById('b')).toBeNull();
      expect(await collection.count({})).toBe(6);
    });

    it('keeps the overall order of writes interleaved across collections', async () => {
      await store.applyWrites([
        put('first', { _id: 'x', step: 1 }),
        put('second', { _id: 'y', step: 1 }),
        put('first', { _id: 'x', step: 2 }),
        remove('second', 'y'),
        put('second', { _id: 'y', step: 3 }),
        remove('first', 'x'),
      ]);
      expect(await store.collection('first').findById('x')).toBeNull();
      expect(await store.collection('second').findById('y')).toEqual({ _id: 'y', step: 3 });
    });

    it('keeps equality lookups on indexed fields right after documents change', async () => {
      await store.applyWrites([put(ITEMS, { _id: 'a', owner: { key: 'k9', tier: 1 }, tags: ['black'], seq: 1 })]);
      expect(await matchIds({ 'owner.key': 'k1' })).toEqual(['c']);
      expect(await matchIds({ 'owner.key': 'k9' })).toEqual(['a']);
      expect(await matchIds({ tags: 'red' })).toEqual(['d']);
      expect(await matchIds({ tags: { $eq: 'black' } })).toEqual(['a']);
      await store.applyWrites([remove(ITEMS, 'd')]);
      expect(await matchIds({ tags: { $in: ['red', 'green'] } })).toEqual([]);
    });

    it('accepts ensureCollections again for collections that already hold data', async () => {
      await store.ensureCollections([{ name: ITEMS, indexes: [{ key: { height: 1, _id: 1 } }, { key: { 'owner.key': 1, seq: 1 } }] }]);
      expect(await matchIds({ height: 3 })).toEqual(['a', 'c', 'e']);
    });
  });

  // The Store contract shares no object with its callers, whatever the store shares with its own writer (sharing-contract.ts).
  describe('isolation', () => {
    it('is not affected by changes to a document after it was written', async () => {
      const doc = { _id: 'h', nested: { list: [1, 2] } };
      await store.applyWrites([put(ITEMS, doc)]);
      doc.nested.list.push(3);
      expect(await store.collection(ITEMS).findById('h')).toEqual({ _id: 'h', nested: { list: [1, 2] } });
    });

    it('is not affected by changes to the documents it returned', async () => {
      const collection = store.collection<Item>(ITEMS);
      const [found] = await collection.find({ _id: 'a' });
      found.tags?.push('mutated');
      (await collection.findById('a'))!.owner!.key = 'mutated';
      (await collection.findOne({ _id: 'a' }))!.name = 'mutated';
      expect(await collection.findById('a')).toEqual(ITEM_DOCS[0]);
    });
  });

  describe('opaque members', () => {
    it('gives them back as written, member order included, and answers queries on the other members', async () => {
      const tx = { id: 'ab'.repeat(32), type: 2, asset: { nftIds: ['cd'.repeat(32), 'ef'.repeat(32)], memo: 'café \u0001' }, fee: '5' };
      await store.ensureCollections([{ name: 'records', indexes: [{ key: { owner: 1 } }], opaqueMembers: ['tx'] }]);
      await store.applyWrites([put('records', { _id: 'r1', owner: 'k1', tx }), put('records', { _id: 'r2', owner: 'k2' })]);
      const [found] = await store.collection('records').find({ owner: 'k1' });
      expect(JSON.stringify(found)).toBe(JSON.stringify({ _id: 'r1', owner: 'k1', tx }));
      expect(await store.collection('records').findById('r2')).toEqual({ _id: 'r2', owner: 'k2' });
    });
  });

  describe('commits and consistent reads', () => {
    it('applies the writes of every step of a commit, in order', async () => {
      await store.commit(async () => {
        await store.applyWrites([put(ITEMS, { _id: 'c1', step: 1 })]);
        await store.applyWrites([put(ITEMS, { _id: 'c1', step: 2 }), put(ITEMS, { _id: 'c2', step: 2 })]);
        await store.applyWrites([remove(ITEMS, 'c2')]);
      });
      expect(await store.collection(ITEMS).findById('c1')).toEqual({ _id: 'c1', step: 2 });
      expect(await store.collection(ITEMS).findById('c2')).toBeNull();
    });

    it('answers the reads of a consistent read and passes its result through', async () => {
      const names = await store.readConsistently(async () => {
        const [first, count] = await Promise.all([store.collection<Item>(ITEMS).findById('a'), store.collection(ITEMS).count({ height: 3 })]);
        return [first?.name, count];
      });
      expect(names).toEqual(['Alpha', 3]);
    });
  });

  describeKeysetContract(() => store);

  it('answers ping while available', async () => {
    await expect(store.ping()).resolves.toBeUndefined();
  });
}
