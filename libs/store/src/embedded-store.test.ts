import { describeStoreContract } from './testing/contract/store-contract';
import { describeSharingContract } from './testing/contract/sharing-contract';
import * as copying from './embedded/copy-document';
import * as packing from './embedded/packed-json';
import { EmbeddedStore } from './embedded-store';
import type { Doc, Filter, Sort, Write } from './types';

describe('EmbeddedStore', () => {
  describeStoreContract(async () => {
    const store = new EmbeddedStore();
    return { store, dispose: () => store.close() };
  });

  describe('shares with its writer, through its own interface', () => {
    describeSharingContract(async () => {
      const store = new EmbeddedStore();
      return { store, dispose: () => store.close() };
    });
  });

  describe('with its order deferred, as while a replay catches up', () => {
    describeStoreContract(async () => {
      const store = new EmbeddedStore();
      store.deferOrder();
      return { store, dispose: () => store.close() };
    });
  });

  it('copies only the documents it returns, not the collection it searched', async () => {
    const store = new EmbeddedStore();
    await store.applyWrites(Array.from({ length: 2000 }, (_, i) => ({ collection: 'big', id: `d${i}`, doc: { _id: `d${i}`, n: i } })));
    const clone = jest.spyOn(copying, 'copyDocument');
    try {
      const page = await store.collection('big').find({ n: { $gte: 100 } }, { sort: { n: -1 }, skip: 5, limit: 10 });
      expect(page.map((doc) => doc.n)).toEqual([1994, 1993, 1992, 1991, 1990, 1989, 1988, 1987, 1986, 1985]);
      expect(await store.collection('big').count({ n: { $lt: 50 } })).toBe(50);
      expect(clone).toHaveBeenCalledTimes(10);
    } finally {
      clone.mockRestore();
    }
  });

  it('leaves the store unchanged when a batch holds a document that cannot be copied', async () => {
    const store = new EmbeddedStore();
    const uncopyable = { _id: 'bad', run: () => 'code' };
    await expect(
      store.applyWrites([
        { collection: 'c', id: 'ok', doc: { _id: 'ok' } },
        { collection: 'c', id: 'bad', doc: uncopyable },
      ]),
    ).rejects.toThrow();
    expect(await store.collection('c').count({})).toBe(0);
  });

  it('holds the documents of held writes without copying them, under the id of their write', async () => {
    const store = new EmbeddedStore();
    const clone = jest.spyOn(copying, 'copyDocument');
    try {
      await store.applyHeldWrites([
        { collection: 'c', id: 'a', doc: { _id: 'a', n: 1 } },
        { collection: 'c', id: 'b', doc: { _id: 'other', n: 2 } },
      ]);
      expect(clone).not.toHaveBeenCalled();
    } finally {
      clone.mockRestore();
    }
    expect(await store.collection('c').find({}, { sort: { n: 1 } })).toEqual([
      { _id: 'a', n: 1 },
      { _id: 'b', n: 2 },
    ]);
  });

  it('unpacks the opaque members of what it returns only when a reader looks at them, its own and held inside another', async () => {
    const store = new EmbeddedStore();
    await store.ensureCollections([{ name: 'records', indexes: [{ key: { n: 1 } }], opaqueMembers: ['tx'] }]);
    const tx = { id: 'ab'.repeat(32), asset: { ids: ['cd'.repeat(32)] } };
    await store.applyWrites([{ collection: 'records', id: 'a', doc: { _id: 'a', n: 1, tx } }]);
    await store.applyHeldWrites([{ collection: 'undo', id: 'u', doc: { _id: 'u', before: [store.findHeld('records', 'a')] } }]);
    const unpack = jest.spyOn(packing, 'unpackedJson');
    try {
      const [record] = await store.collection<Doc & { n: number; tx: typeof tx }>('records').find({ n: { $gte: 1 } }, { sort: { n: 1 } });
      const undo = await store.collection<Doc & { before: Doc[] }>('undo').findById('u');
      expect(unpack).not.toHaveBeenCalled();
      expect(record.tx).toEqual(tx);
      expect(undo!.before[0]).toEqual({ _id: 'a', n: 1, tx });
      expect(unpack).toHaveBeenCalledTimes(2);
      record.tx.asset.ids.push('changed');
    } finally {
      unpack.mockRestore();
    }
    expect(await store.collection('records').findById('a')).toEqual({ _id: 'a', n: 1, tx });
  });

  it('refuses opaque members declared once the collection holds documents, which it would hold unpacked', async () => {
    const store = new EmbeddedStore();
    await store.applyWrites([{ collection: 'records', id: 'a', doc: { _id: 'a', tx: { n: 1 } } }]);
    await expect(store.ensureCollections([{ name: 'records', indexes: [], opaqueMembers: ['tx'] }])).rejects.toThrow(/come too late/);
  });

  it('reflects writes in sort orders it has already served', async () => {
    const store = new EmbeddedStore();
    const write = (id: string, rank: number): Write => ({ collection: 'ranked', id, doc: { _id: id, rank } });
    await store.applyWrites([write('a', 1), write('b', 2)]);
    const byRank = () => store.collection('ranked').find({}, { sort: { rank: 1 } });
    expect((await byRank()).map((doc) => doc._id)).toEqual(['a', 'b']);
    await store.applyWrites([write('a', 3), write('c', 0)]);
    expect((await byRank()).map((doc) => doc._id)).toEqual(['c', 'b', 'a']);
  });

  it('reflects writes in filtered results and counts it has already served', async () => {
    const store = new EmbeddedStore();
    const write = (id: string, colour: string): Write => ({ collection: 'paint', id, doc: { _id: id, colour } });
    await store.applyWrites([write('a', 'red'), write('b', 'blue')]);
    const reds = store.collection('paint');
    expect((await reds.find({ colour: 'red' })).map((doc) => doc._id)).toEqual(['a']);
    expect(await reds.count({ colour: 'red' })).toBe(1);
    await store.applyWrites([write('b', 'red'), { collection: 'paint', id: 'a', doc: null }]);
    expect((await reds.find({ colour: 'red' })).map((doc) => doc._id)).toEqual(['b']);
    expect(await reds.count({ colour: 'red' })).toBe(1);
  });

  it('never confuses filters that differ only in values JSON cannot show, such as RegExp', async () => {
    const store = new EmbeddedStore();
    await store.applyWrites(['apple', 'banana'].map((name) => ({ collection: 'fruit', id: name, doc: { _id: name, name } })));
    const fruit = store.collection('fruit');
    expect((await fruit.find({ name: /^a/ })).map((doc) => doc._id)).toEqual(['apple']);
    expect((await fruit.find({ name: /^b/ })).map((doc) => doc._id)).toEqual(['banana']);
    expect(await fruit.count({ name: /^a/ })).toBe(1);
    expect(await fruit.count({ name: /^x/ })).toBe(0);
  });

  it('gives the same answers, in the same order, with and without equality indexes', async () => {
    const docs = sampleDocs(400);
    const indexed = new EmbeddedStore();
    await indexed.ensureCollections([
      {
        name: 'docs',
        indexes: [
          { key: { owner: 1, _id: 1 } },
          { key: { tags: 1 } },
          { key: { 'items.id': 1 } },
          { key: { 'deep.level': 1 } },
          { key: { flag: 1 } },
        ],
      },
    ]);
    const plain = new EmbeddedStore();
    // Writing twice moves documents between index entries: the replace path must keep answers consistent too.
    for (const store of [indexed, plain]) {
      await store.applyWrites(docs.map((doc) => ({ collection: 'docs', id: doc._id, doc: { ...doc, owner: 'stale' } })));
      await store.applyWrites(docs.map((doc) => ({ collection: 'docs', id: doc._id, doc })));
    }
    const cases: [Filter, Sort | undefined][] = [
      [{ owner: 'o3' }, undefined],
      [{ owner: { $in: ['o1', 'o4', 'nobody'] } }, { rank: -1 }],
      [
        { owner: { $eq: 'o2' }, rank: { $gt: 10 } },
        { rank: 1, _id: -1 },
      ],
      [{ tags: 't2' }, undefined],
      [{ tags: { $in: ['t0', 't4'] } }, { owner: 1 }],
      [{ 'items.id': 'i7' }, undefined],
      [{ 'deep.level': 2 }, undefined],
      [{ 'deep.level': '3' }, undefined],
      [{ flag: true, owner: 'o1' }, undefined],
      [{ _id: { $in: ['d5', 'd1', 'missing'] } }, undefined],
      [{ _id: 'd9' }, undefined],
    ];
    for (const [filter, sort] of cases) {
      const expected = await plain.collection('docs').find(filter, { sort });
      expect({ filter, found: expected.length > 0 }).toEqual({ filter, found: true });
      expect(await indexed.collection('docs').find(filter, { sort })).toEqual(expected);
      expect(await indexed.collection('docs').count(filter)).toBe(expected.length);
    }
  });

  it('answers as it does in order while its order is deferred, and once it is restored', async () => {
    const docs = sampleDocs(400);
    const kept = new EmbeddedStore();
    const deferred = new EmbeddedStore();
    const writes = (owner: (doc: Doc) => string): Write[] =>
      docs.map((doc) => ({ collection: 'docs', id: doc._id, doc: { ...doc, owner: owner(doc) } }));
    const read = (store: EmbeddedStore) => store.collection('docs').find({ owner: { $in: ['o1', 'o3'] } }, { sort: { rank: -1, _id: 1 } });
    for (const store of [kept, deferred]) {
      await store.ensureCollections([{ name: 'docs', indexes: [{ key: { rank: 1, _id: -1 } }, { key: { owner: 1 } }] }]);
    }
    deferred.deferOrder();
    for (const store of [kept, deferred]) await store.applyWrites(writes(() => 'o1'));
    expect(await read(deferred)).toEqual(await read(kept));
    const removals: Write[] = docs.filter((_, i) => i % 7 === 0).map((doc) => ({ collection: 'docs', id: doc._id, doc: null }));
    for (const store of [kept, deferred]) await store.applyWrites([...writes((doc) => doc.owner as string), ...removals]);
    deferred.restoreOrder();
    expect(await read(deferred)).toEqual(await read(kept));
    for (const store of [kept, deferred]) await store.applyWrites(writes((doc) => ((doc.rank as number) % 2 ? 'o3' : 'o2')));
    const found = await read(deferred);
    expect(found.length).toBeGreaterThan(0);
    expect(found).toEqual(await read(kept));
  });
});

/** Values at indexed paths in every shape equality can meet: scalars, arrays, arrays of objects, mixed types. */
function sampleDocs(count: number): Doc[] {
  return Array.from({ length: count }, (_, i) => ({
    _id: `d${i}`,
    owner: `o${i % 5}`,
    rank: (i * 37) % 23,
    tags: i % 3 === 0 ? `t${i % 5}` : [`t${i % 5}`, `t${(i + 2) % 5}`],
    items: [{ id: `i${i % 11}` }, { id: `i${(i + 1) % 11}`, extra: [i] }],
    deep: i % 2 === 0 ? { level: i % 4 } : [{ level: String(i % 4) }, { level: [i % 3] }],
    flag: i % 4 === 0,
  }));
}
