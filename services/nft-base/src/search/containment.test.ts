import { containmentFilter } from './containment';

describe('containmentFilter', () => {
  it('matches all for an empty body', () => {
    expect(containmentFilter('attributes', {})).toEqual({});
  });

  it('compares every leaf with $eq under its dotted path and combines the conditions with $and', () => {
    expect(containmentFilter('attributes', { name: '$where', power: 9, stats: { hp: 1, moves: ['claw'] }, rarity: null })).toEqual({
      $and: [
        { 'attributes.name': { $eq: '$where' } },
        { 'attributes.power': { $eq: 9 } },
        { 'attributes.stats.hp': { $eq: 1 } },
        { 'attributes.stats.moves': { $eq: 'claw' } },
        { 'attributes.rarity': { $exists: true, $eq: null } },
      ],
    });
  });

  it('matches objects inside arrays by containment and empty containers by type', () => {
    expect(containmentFilter('', { metadata: { tiers: [{ level: 2 }], extra: {}, list: [] } })).toEqual({
      $and: [
        { 'metadata.tiers': { $elemMatch: { level: { $eq: 2 } } } },
        { 'metadata.extra': { $type: 'object' } },
        { 'metadata.list': { $type: 'array' } },
      ],
    });
    expect(containmentFilter('', { name: 'Cards' })).toEqual({ name: { $eq: 'Cards' } });
  });
});
