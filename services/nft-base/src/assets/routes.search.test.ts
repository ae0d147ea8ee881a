import type { TestArea } from '@ledger-api/runtime/testing';
import { galleryLedger, gallerySearch, ids, startNftBase } from '../testing/gallery';

const { gallery, search, found, start, close } = gallerySearch('/nft/assets/search');

beforeAll(start);
afterAll(close);

describe('POST /nft/assets/search', () => {
  it('matches every asset with an empty body', async () => {
    const { dragon, knight, ghost, stamp } = gallery;
    expect(await found({})).toEqual([dragon.id, knight.id, ghost.id, stamp.id]);
  });

  it('matches attribute values exactly, numbers by value, and combines members with AND', async () => {
    const { dragon, knight } = gallery;
    expect(await found({ name: 'Knight' })).toEqual([knight.id]);
    expect(await found({ power: 9.0 })).toEqual([dragon.id]);
    expect(await found({ power: '9' })).toEqual([]);
    expect(await found({ power: 9, name: 'Knight' })).toEqual([]);
    expect(await found({ country: 'NL', power: 9 })).toEqual([]);
  });

  it('takes % and regex metacharacters literally', async () => {
    expect(await found({ name: 'Ghost%' })).toEqual([gallery.ghost.id]);
    expect(await found({ name: 'Gh%' })).toEqual([]);
    expect(await found({ name: '.*' })).toEqual([]);
    expect(await found({ name: '^Dragon$' })).toEqual([]);
  });

  it('matches nested objects by the given keys and arrays by the given elements', async () => {
    const { dragon, knight } = gallery;
    expect(await found({ tags: ['rare'] })).toEqual([dragon.id]);
    expect(await found({ tags: ['rare', 'steel'] })).toEqual([]);
    expect(await found({ tags: [] })).toEqual([dragon.id, knight.id]);
    expect(await found({ stats: { moves: ['slash'] } })).toEqual([knight.id]);
    expect(await found({ stats: { hp: 100, moves: ['bite', 'claw'] } })).toEqual([dragon.id]);
    expect(await found({ stats: {} })).toEqual([dragon.id, knight.id]);
  });

  it('takes a dotted name as one attribute name, never as a path', async () => {
    expect(await found({ stats: { hp: 100 } })).toEqual([gallery.dragon.id]);
    expect(await found({ 'stats.hp': 100 })).toEqual([]);
    expect(await found({ 'tags.0': 'fire' })).toEqual([]);
    expect(await found({ '': 1 })).toEqual([]);
  });

  it('matches a null value only where the attribute is present and null', async () => {
    expect(await found({ rarity: null })).toEqual([gallery.ghost.id]);
  });

  it('pages, orders and transforms like the list', async () => {
    const { body } = await search({ collectionId: gallery.cards.id }, '');
    expect(body.data).toEqual([]);
    const page = await search({ power: 5 }, '?transform=false&orderBy=fee:desc&limit=5');
    expect(page.body.data).toEqual([{ ...gallery.knight, blockId: expect.any(String), blockHeight: 2, sequence: 1 }]);
    expect(page.body.meta.self).toBe('/nft/assets/search?transform=false&orderBy=fee%3Adesc&limit=5&page=1');
  });
});

describe('POST /nft/assets/search validation', () => {
  it.each([
    [['Dragon'], '"value" must be of type object'],
    [7, '"value" must be of type object'],
    ['', '"value" must be of type object'],
  ])('answers 422 for %j', async (body, message) => {
    expect(await search(body)).toMatchObject({ status: 422, body: { statusCode: 422, error: 'Unprocessable Entity', message } });
  });

  it('answers 422 for a body nested too deeply', async () => {
    let nested: unknown = 1;
    for (let depth = 0; depth < 40; depth++) nested = [{ level: nested }];
    const { status, body } = await search({ stats: nested });
    expect(status).toBe(422);
    expect(body.message).toMatch(/^"stats\.0\.level\.0\.level.* must not be nested more than 16 levels deep$/);
  });

  it('validates the query before the body', async () => {
    expect((await search({ $where: 'x' }, '?limit=0')).body.message).toBe('"limit" must be greater than or equal to 1');
    expect((await search({}, '?orderBy=name:asc')).body.message).toBe("Unknown orderBy property 'name'");
  });
});

describe('POST /nft/assets/search with member names as data (§5)', () => {
  const special = {
    winged: { traits: ['winged'], species: 'frog', 'size.cm': 12.5, $ref: 'x', tiers: [{ level: 1 }, [2]] },
    plain: { traits: 'winged', species: ['frog'], size: { cm: 12.5 } },
    proto: JSON.parse('{"__proto__":{"polluted":true},"constructor":"c","":"empty","a\\u0000b":1,"%2E":"."}'),
    operators: JSON.parse('{"$where":"1","name":{"$gt":""},"$or":[{"a":1}]}'),
  };
  let names: Record<keyof typeof special, string>;
  let namesArea: TestArea;
  const searchNames = (body: unknown) => namesArea.request('POST', '/nft/assets/search', body);
  const foundNames = async (body: unknown) => {
    const response = await searchNames(body);
    expect(response).toMatchObject({ status: 200 });
    return ids(response.body).map((id) => Object.entries(names).find(([, assetId]) => assetId === id)?.[0]);
  };

  beforeAll(async () => {
    const { ledger, alice, cards } = galleryLedger();
    const tokens = Object.entries(special).map(([name, attributes]) => [name, ledger.token(alice, cards.id, attributes)] as const);
    ledger.block(...tokens.map(([, token]) => token));
    names = Object.fromEntries(tokens.map(([name, token]) => [name, token.id])) as typeof names;
    namesArea = await startNftBase(ledger.events);
  });
  afterAll(() => namesArea.close());

  it('matches a scalar only to an equal scalar and an array only to an array holding every element', async () => {
    expect(await foundNames({ traits: 'winged' })).toEqual(['plain']);
    expect(await foundNames({ traits: ['winged'] })).toEqual(['winged']);
    expect(await foundNames({ species: ['frog'] })).toEqual(['plain']);
    expect(await foundNames({ species: 'frog' })).toEqual(['winged']);
    expect(await foundNames({ tiers: [[2], { level: 1 }] })).toEqual(['winged']);
    expect(await foundNames({ tiers: [2] })).toEqual([]);
    expect(await foundNames({ tiers: { level: 1 } })).toEqual([]);
    expect(await foundNames({ traits: [{}] })).toEqual([]);
    expect(await foundNames({ traits: [[]] })).toEqual([]);
  });

  it('takes names with . and $ literally', async () => {
    expect(await foundNames({ 'size.cm': 12.5 })).toEqual(['winged']);
    expect(await foundNames({ size: { cm: 12.5 } })).toEqual(['plain']);
    expect(await foundNames({ $ref: 'x' })).toEqual(['winged']);
    expect(await foundNames({ $where: '1' })).toEqual(['operators']);
    expect(await foundNames({ name: { $gt: '' } })).toEqual(['operators']);
    expect(await foundNames({ $or: [{ a: 1 }] })).toEqual(['operators']);
    expect(await foundNames({ '%2E': '.' })).toEqual(['proto']);
    expect(await foundNames({ '.': '.' })).toEqual([]);
  });

  it('takes __proto__, constructor, the empty name and NUL literally', async () => {
    expect(await foundNames('{"__proto__":{"polluted":true}}')).toEqual(['proto']);
    expect(await foundNames('{"__proto__":{}}')).toEqual(['proto']);
    expect(await foundNames('{"__proto__":1}')).toEqual([]);
    expect(await foundNames('{"a":{"__proto__":1}}')).toEqual([]);
    expect(await foundNames('{"traits":[{"__proto__":[]}]}')).toEqual([]);
    expect(await foundNames({ constructor: 'c' })).toEqual(['proto']);
    expect(await foundNames({ '': 'empty' })).toEqual(['proto']);
    expect(await foundNames({ 'a\0b': 1 })).toEqual(['proto']);
  });

  it.each([
    { $where: 'true' },
    { $where: 'sleep(100) || true' },
    { $expr: { $eq: [1, 1] } },
    { $or: [{ traits: 'winged' }, { species: 'frog' }] },
    { $and: [{}] },
    { $nor: [{ a: 1 }] },
    { $comment: 'x' },
    { $text: { $search: 'frog' } },
    { $jsonSchema: {} },
    { traits: { $regex: '.*' } },
    { traits: { $ne: null } },
    { traits: { $exists: true } },
    { traits: { $size: 1 } },
    { traits: { $elemMatch: { $eq: 'winged' } } },
    { traits: { $all: ['winged'] } },
    { species: { $in: ['frog'] } },
    { species: { $type: 'string' } },
    { species: { $not: { $eq: 'x' } } },
    { name: { $gt: 0 } },
    { 'size.cm': { $gt: 0 } },
    { 'traits.0': 'winged' },
    { tiers: [{ $gt: 0 }] },
    { 'tiers.level': 1 },
  ])('runs no operator in %j and matches nothing', async (body) => {
    expect(await foundNames(body)).toEqual([]);
  });

  it('stores and shows attributes named __proto__ as they were minted, without the search form', async () => {
    const { status, body } = await namesArea.request('GET', `/nft/assets/${names.proto}`);
    expect(status).toBe(200);
    expect(Object.keys(body.data)).toEqual(['id', 'ownerPublicKey', 'collectionId', 'attributes', 'timestamp']);
    expect(JSON.stringify(body.data.attributes)).toBe(JSON.stringify(special.proto));
    const { body: page } = await searchNames({ constructor: 'c' });
    expect(Object.keys(page.data[0])).toEqual(['id', 'ownerPublicKey', 'senderPublicKey', 'collectionId', 'attributes', 'timestamp']);
    expect(JSON.stringify(page.data[0].attributes)).toBe(JSON.stringify(special.proto));
  });
});
