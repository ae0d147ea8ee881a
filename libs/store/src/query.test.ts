import { allOf, escapeRegex, likeFilter } from './query';

describe('likeFilter', () => {
  const matches = (pattern: string, text: string, caseInsensitive = false) => {
    const filter = likeFilter(pattern, { caseInsensitive });
    if ('$eq' in filter) return filter.$eq === text;
    return new RegExp(filter.$regex as string, (filter.$options as string) ?? '').test(text);
  };

  it('matches exactly without a wildcard', () => {
    expect(likeFilter('Test')).toEqual({ $eq: 'Test' });
    expect(matches('Test', 'Testing')).toBe(false);
  });

  it('treats % as any run of characters', () => {
    expect(matches('Test%', 'Testing')).toBe(true);
    expect(matches('Test%', 'a Test')).toBe(false);
    expect(matches('%est%', 'a Testing b')).toBe(true);
    expect(matches('%', '')).toBe(true);
  });

  it('keeps regex metacharacters literal', () => {
    expect(matches('a.c%', 'abcd')).toBe(false);
    expect(matches('a.c%', 'a.cd')).toBe(true);
    expect(matches('(x)[y]*+?%', '(x)[y]*+?z')).toBe(true);
    expect(escapeRegex('^$\\')).toBe('\\^\\$\\\\');
  });

  it('can ignore letter case', () => {
    expect(matches('test%', 'TESTING', true)).toBe(true);
    expect(matches('te.t', 'TEXT', true)).toBe(false);
  });
});

describe('allOf', () => {
  it('matches everything for no condition, keeps a single one and joins several with $and', () => {
    expect(allOf([])).toEqual({});
    expect(allOf([{ a: { $eq: 1 } }])).toEqual({ a: { $eq: 1 } });
    expect(allOf([{ a: { $eq: 1 } }, { b: { $eq: 2 } }])).toEqual({ $and: [{ a: { $eq: 1 } }, { b: { $eq: 2 } }] });
  });
});
