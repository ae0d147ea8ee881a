import { EmbeddedStore } from './embedded-store';
import { keysetFilter, reverseSort, sortValues, withKeyset } from './keyset';
import type { Doc, Sort } from './types';

describe('keysetFilter', () => {
  it('bounds the first field and takes, per field, the documents level on the earlier ones and beyond on it', () => {
    expect(keysetFilter({ fee: -1, height: 1, seq: 1 }, ['0003', 7, 2])).toEqual({
      $and: [
        { fee: { $lte: '0003' } },
        {
          $or: [
            { fee: { $lt: '0003' } },
            { fee: { $eq: '0003' }, height: { $gt: 7 } },
            { fee: { $eq: '0003' }, height: { $eq: 7 }, seq: { $gt: 2 } },
          ],
        },
      ],
    });
  });

  it('refuses a boundary that does not fit the sort', () => {
    expect(() => keysetFilter({ height: 1, seq: 1 }, [7])).toThrow('one value per sort field');
    expect(() => withKeyset({}, undefined, [7])).toThrow('one value per sort field');
  });

  it('joins the query and the boundary with $and, and leaves a query without a boundary alone', () => {
    const query = { owner: { $eq: 'k' } };
    expect(withKeyset(query, { _id: 1 }, ['x'])).toEqual({ $and: [query, keysetFilter({ _id: 1 }, ['x'])] });
    expect(withKeyset({}, { _id: 1 }, ['x'])).toEqual(keysetFilter({ _id: 1 }, ['x']));
    expect(withKeyset(query, { _id: 1 }, undefined)).toBe(query);
  });
});

describe('the MongoDB keyset filter and the embedded keyset search', () => {
  const docs: Doc[] = Array.from({ length: 40 }, (_, i) => ({
    _id: `d${String(i).padStart(2, '0')}`,
    height: i % 5,
    fee: String((i * 7) % 4).padStart(4, '0'),
    open: i % 3 === 0,
    owner: { tier: i % 2 },
  }));
  const sorts: Sort[] = [{ height: 1, _id: 1 }, { fee: -1, height: 1, _id: 1 }, { open: -1, 'owner.tier': 1, _id: -1 }, { _id: -1 }];

  it('find the same documents after every boundary, the filter evaluated as MongoDB does (mingo)', async () => {
    const store = new EmbeddedStore();
    await store.applyWrites(docs.map((doc) => ({ collection: 'docs', id: doc._id, doc })));
    const collection = store.collection('docs');
    for (const sort of sorts) {
      const boundaries = [...docs.map((doc) => sortValues(doc, sort)), Object.keys(sort).map(() => 'zz')];
      for (const after of boundaries) {
        const searched = await collection.find({}, { sort, after });
        const filtered = await collection.find(withKeyset({}, sort, after), { sort });
        expect({ sort, after, ids: searched.map((doc) => doc._id) }).toEqual({ sort, after, ids: filtered.map((doc) => doc._id) });
      }
    }
  });
});

describe('sortValues', () => {
  it('reads each sort field, dotted paths included, in sort order', () => {
    expect(sortValues({ _id: 'a', height: 3, timestamp: { epoch: 99 } }, { 'timestamp.epoch': -1, height: 1, _id: 1 })).toEqual([99, 3, 'a']);
  });

  it('fails on a document without a sort field rather than walk past records', () => {
    expect(() => sortValues({ _id: 'a', height: null }, { height: 1 })).toThrow(
      'Keyset paging needs "height" on every document of the list; "a" has none',
    );
    expect(() => sortValues({ _id: 'a' }, { 'timestamp.epoch': 1 })).toThrow('"timestamp.epoch"');
  });
});

describe('reverseSort', () => {
  it('turns every direction round and keeps the field order', () => {
    expect(Object.entries(reverseSort({ fee: -1, height: 1 }))).toEqual([
      ['fee', 1],
      ['height', -1],
    ]);
  });
});
