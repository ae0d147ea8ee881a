import type { CollectionSpec } from '../types';
import { indexCoverage } from './index-coverage';
import { queryShape } from './query-shape';
import type { RecordedRead } from './recording-store';

const specs: CollectionSpec[] = [
  {
    name: 'things',
    indexes: [
      { key: { height: 1, seq: 1 } },
      { key: { fee: 1, height: 1, seq: 1 } },
      { key: { owner: 1, height: 1, seq: 1 } },
      { key: { status: 1, height: 1, seq: 1 } },
      { key: { 'form.$**': 1 } },
    ],
  },
];
const options = { lowCardinality: { things: ['status'] } };
const read = (filter: RecordedRead['filter'], sort?: RecordedRead['sort'], operation: RecordedRead['operation'] = 'find'): RecordedRead => ({
  collection: 'things',
  operation,
  filter,
  ...(sort && { sort }),
});
const coverage = (filter: RecordedRead['filter'], sort?: RecordedRead['sort'], operation?: RecordedRead['operation']) =>
  indexCoverage(read(filter, sort, operation), specs, options);

describe('indexCoverage', () => {
  it('accepts a sort an index carries in order or exactly reversed, and nothing else', () => {
    expect(coverage({}, { fee: 1, height: 1, seq: 1 })).toBe('indexed');
    expect(coverage({}, { fee: -1, height: -1, seq: -1 })).toBe('indexed');
    expect(coverage({}, { fee: -1, height: 1, seq: 1 })).toBe('unindexed');
    expect(coverage({}, { height: -1, seq: 1 })).toBe('unindexed');
    expect(coverage({}, { _id: -1 })).toBe('indexed');
  });

  it('wants equality fields before the sort, and lets a selective one bound an in-memory sort', () => {
    expect(coverage({ owner: { $eq: 'k' } }, { height: 1, seq: 1 })).toBe('indexed');
    expect(coverage({ owner: { $eq: 'k' }, status: 'active' }, { height: -1, seq: -1 })).toBe('indexed');
    expect(coverage({ owner: { $eq: 'k' } }, { fee: -1, height: 1, seq: 1 })).toBe('bounded-sort');
    expect(coverage({ nobody: { $eq: 'k' } }, { height: 1, seq: 1 })).toBe('unindexed');
  });

  it('makes a low-cardinality equality walk an index in sort order', () => {
    expect(coverage({ status: { $eq: 'active' } }, { fee: 1, height: 1, seq: 1 })).toBe('indexed');
    expect(coverage({ status: { $eq: 'active' } }, { fee: -1, height: 1, seq: 1 })).toBe('unindexed');
    expect(coverage({ status: { $eq: 'active' } }, undefined, 'count')).toBe('indexed');
    expect(coverage({ $and: [{ status: 'active' }, { fee: { $gt: '1' } }] }, undefined, 'count')).toBe('indexed');
  });

  it('wants a range-only count to start on its range field', () => {
    expect(coverage({ fee: { $regex: '^1' } }, undefined, 'count')).toBe('indexed');
    expect(coverage({ other: { $regex: '^1' } }, undefined, 'count')).toBe('unindexed');
  });

  it('serves search form conditions from the wildcard index, and estimates from metadata', () => {
    expect(coverage({ 'form.~a': { $eq: 1 }, 'form.~b': { $type: 'object' } }, { fee: -1, height: 1, seq: 1 })).toBe('wildcard');
    expect(coverage({}, undefined, 'estimatedCount')).toBe('indexed');
  });

  it('takes a keyset boundary for a range on the sort fields, which the index carrying the sort serves', () => {
    const keyset = (filter: RecordedRead['filter'], sort: RecordedRead['sort']) =>
      indexCoverage({ ...read(filter, sort), after: [1, 2] }, specs, options);
    expect(keyset({}, { height: -1, seq: -1 })).toBe('indexed');
    expect(keyset({ owner: { $eq: 'k' } }, { height: 1, seq: 1 })).toBe('indexed');
    expect(keyset({}, { height: -1, seq: 1 })).toBe('unindexed');
    const shape = queryShape({ filter: { owner: { $eq: 'k' } }, sort: { owner: 1, height: 1 }, after: ['k', 3] });
    expect(shape.range).toEqual(new Set(['height']));
  });

  it('refuses a collection without a spec and an operator it has no rule for', () => {
    expect(() => indexCoverage({ ...read({}), collection: 'other' }, specs)).toThrow('No collection spec declares other');
    expect(() => coverage({ $or: [{ owner: 'k' }] })).toThrow('$or');
  });
});
