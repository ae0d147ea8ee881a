import { containmentFilter } from './containment';

describe('containmentFilter', () => {
  it('matches all for an empty body', () => {
    expect(containmentFilter({})).toEqual({});
  });

  it('compares every scalar with $eq under escaped names of the search form', () => {
    expect(containmentFilter({ name: '$where', 'size.cm': 9, stats: { hp: 1 }, rarity: null })).toEqual({
      'searchForm.~name': { $eq: '$where' },
      'searchForm.~size%2Ecm': { $eq: 9 },
      'searchForm.~stats.~hp': { $eq: 1 },
      'searchForm.~rarity': { $exists: true, $eq: null },
    });
  });

  it('keeps operator and prototype names as escaped field names', () => {
    const body = JSON.parse('{"$where":"1","__proto__":{"$gt":""},"":{"$regex":".*"}}');
    const filter = containmentFilter(body);
    expect(Object.getPrototypeOf(filter)).toBe(Object.prototype);
    expect(filter).toEqual({
      'searchForm.~$where': { $eq: '1' },
      'searchForm.~__proto__.~$gt': { $eq: '' },
      'searchForm.~.~$regex': { $eq: '.*' },
    });
  });

  it('reaches array elements only through the wrapped array: scalars with one $all, the rest with $elemMatch', () => {
    expect(containmentFilter({ tags: ['fire', null, 7, [2], { level: 2 }] })).toEqual({
      'searchForm.~tags.[]': { $all: ['fire', 7] },
      $and: [
        { 'searchForm.~tags.[]': { $elemMatch: { $eq: null } } },
        { 'searchForm.~tags.[]': { $elemMatch: { '[]': { $all: [2] } } } },
        { 'searchForm.~tags.[]': { $elemMatch: { '[]': { $exists: false }, '~level': { $eq: 2 } } } },
      ],
    });
  });

  it('asks once for a repeated element', () => {
    const repeated = { tags: [...Array(1000).fill('fire'), ...Array(1000).fill({ level: 2 }), 'fire', null, null] };
    expect(containmentFilter(repeated)).toEqual(containmentFilter({ tags: ['fire', { level: 2 }, null] }));
  });

  it('matches empty containers by kind, an object never being a wrapped array', () => {
    expect(containmentFilter({ extra: {}, list: [] })).toEqual({
      'searchForm.~extra': { $type: 'object' },
      'searchForm.~extra.[]': { $exists: false },
      'searchForm.~list.[]': { $type: 'array' },
    });
    expect(containmentFilter({ list: [{}, []] })).toEqual({
      'searchForm.~list.[]': { $elemMatch: { '[]': { $exists: false } } },
      $and: [{ 'searchForm.~list.[]': { $elemMatch: { '[]': { $type: 'array' } } } }],
    });
  });
});
