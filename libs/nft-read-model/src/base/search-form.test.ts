import { collectionSearchForm, SEARCH_ARRAY_KEY, searchFieldName, searchForm } from './search-form';

describe('searchFieldName', () => {
  it('prefixes every name and percent-escapes %, . and NUL', () => {
    expect(['a', '', '$ref', 'size.cm', '100%', 'a\0b', '__proto__', '0'].map(searchFieldName)).toEqual([
      '~a',
      '~',
      '~$ref',
      '~size%2Ecm',
      '~100%25',
      '~a%00b',
      '~__proto__',
      '~0',
    ]);
  });

  it('keeps distinct names distinct and never gives the array key', () => {
    const names = ['.', '%2E', '%252E', '%', '%25', '\0', '%00', '[]', '~', '~[]'];
    const fields = names.map(searchFieldName);
    expect(new Set(fields).size).toBe(names.length);
    expect(fields).not.toContain(SEARCH_ARRAY_KEY);
  });
});

describe('searchForm', () => {
  it('escapes member names at every depth and wraps every array', () => {
    expect(searchForm({ 'size.cm': 12.5, tags: ['fire', { $gt: 1 }, [[]]], stats: { hp: null } })).toEqual({
      '~size%2Ecm': 12.5,
      '~tags': { '[]': ['fire', { '~$gt': 1 }, { '[]': [{ '[]': [] }] }] },
      '~stats': { '~hp': null },
    });
  });

  it('keeps a __proto__ member as data, leaving the prototype alone', () => {
    const form = searchForm(JSON.parse('{"__proto__":{"polluted":true},"list":[{"__proto__":1}]}'));
    expect(Object.getPrototypeOf(form)).toBe(Object.prototype);
    expect(JSON.stringify(form)).toBe('{"~__proto__":{"~polluted":true},"~list":{"[]":[{"~__proto__":1}]}}');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('collectionSearchForm', () => {
  it('holds only the searchable fields the collection has', () => {
    const collection = { name: 'Cards', description: 'd', maximumSupply: 5, jsonSchema: {}, senderPublicKey: '02ab', currentSupply: 3 };
    expect(collectionSearchForm(collection)).toEqual({
      '~name': 'Cards',
      '~description': 'd',
      '~maximumSupply': 5,
      '~jsonSchema': {},
      '~senderPublicKey': '02ab',
    });
  });
});
