import type { TestArea } from '@ledger-api/runtime/testing';
import { galleryLedger, gallerySearch, ids, startNftBase } from '../testing/gallery';

const { gallery, search, found, start, close } = gallerySearch('/nft/collections/search');

beforeAll(start);
afterAll(close);

describe('POST /nft/collections/search', () => {
  it('matches every collection with an empty body', async () => {
    expect(await found({})).toEqual([gallery.cards.id, gallery.stamps.id]);
  });

  it('compares strings exactly, with % and regex metacharacters taken literally', async () => {
    expect(await found({ name: 'Stamps (1840)' })).toEqual([gallery.stamps.id]);
    expect(await found({ name: 'Stamps' })).toEqual([]);
    expect(await found({ name: 'Stamps%' })).toEqual([]);
    expect(await found({ name: 'Stamps .1840.' })).toEqual([]);
    expect(await found({ name: 'cards' })).toEqual([]);
    expect(await found({ description: 'Trading cards', name: 'Cards' })).toEqual([gallery.cards.id]);
    expect(await found({ description: 'Trading cards', name: 'Stamps (1840)' })).toEqual([]);
  });

  it('matches objects by the given keys at any depth, extra stored keys allowed', async () => {
    expect(await found({ jsonSchema: { properties: { power: { type: 'number' } } } })).toEqual([gallery.cards.id]);
    expect(await found({ jsonSchema: { properties: {} } })).toEqual([gallery.cards.id, gallery.stamps.id]);
    expect(await found({ metadata: {} })).toEqual([gallery.cards.id]);
    expect(await found({ metadata: { tiers: [{}] } })).toEqual([gallery.cards.id]);
    expect(await found({ jsonSchema: { properties: { power: { type: 'string' } } } })).toEqual([]);
    expect(await found({ jsonSchema: { properties: { country: { type: 'string' } }, type: 'object' } })).toEqual([gallery.stamps.id]);
    expect(await found({ metadata: { series: 'first' } })).toEqual([gallery.cards.id]);
  });

  it('matches arrays when every given element is present, objects in arrays by containment', async () => {
    expect(await found({ allowedIssuers: [gallery.alice.publicKey] })).toEqual([gallery.cards.id]);
    expect(await found({ allowedIssuers: [gallery.alice.publicKey, gallery.bob.publicKey] })).toEqual([]);
    expect(await found({ metadata: { tiers: [{ level: 2 }] } })).toEqual([gallery.cards.id]);
    expect(await found({ metadata: { tiers: [{ level: 2, label: 'common' }] } })).toEqual([]);
    expect(await found({ jsonSchema: { required: ['country'] } })).toEqual([gallery.stamps.id]);
  });

  it('compares numbers by value and public keys in any letter case', async () => {
    expect(await found({ maximumSupply: 100.0 })).toEqual([gallery.cards.id]);
    expect(await found({ maximumSupply: 5 })).toEqual([gallery.stamps.id]);
    expect(await found({ senderPublicKey: gallery.bob.publicKey.toUpperCase() })).toEqual([gallery.stamps.id]);
  });

  it('pages and transforms like the list', async () => {
    const { body } = await search({}, '?limit=1&transform=false&orderBy=name:desc');
    expect(body.data).toEqual([{ ...gallery.stamps, blockId: expect.any(String), blockHeight: 1, sequence: 1 }]);
    expect(body.meta).toMatchObject({
      count: 1,
      totalCount: 2,
      next: '/nft/collections/search?limit=1&transform=false&orderBy=name%3Adesc&page=2',
    });
  });
  it('matches a scalar only to an equal scalar and an array only to an array', async () => {
    expect(await found({ jsonSchema: { required: 'country' } })).toEqual([]);
    expect(await found({ metadata: { series: ['first'] } })).toEqual([]);
    expect(await found({ metadata: { tiers: { level: 2 } } })).toEqual([]);
    expect(await found({ metadata: { tiers: [[]] } })).toEqual([]);
  });

  it.each([
    { jsonSchema: { $where: 'sleep(1000)' } },
    { jsonSchema: { properties: { name: { $exists: true } } } },
    { jsonSchema: { $or: [{ type: 'object' }] } },
    { metadata: { tiers: [{ $gt: 1 }] } },
    { metadata: { tiers: { $elemMatch: { level: 1 } } } },
    { metadata: { 'tiers.level': 1 } },
    { metadata: { series: { $regex: '.*' } } },
  ])('runs no operator in %j and matches nothing', async (body) => {
    expect(await found(body)).toEqual([]);
  });
});

describe('POST /nft/collections/search with member names as data (§5)', () => {
  const jsonSchema = JSON.parse('{"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"card","properties":{"size.cm":{"type":"number"}}}');
  const metadata = JSON.parse('{"__proto__":{"origin":"mint"},"a.b":1,"":[null],"constructor":"c"}');
  let registryId: string;
  let namesArea: TestArea;
  const foundNames = async (body: unknown) => {
    const response = await namesArea.request('POST', '/nft/collections/search', body);
    expect(response).toMatchObject({ status: 200 });
    return ids(response.body);
  };

  beforeAll(async () => {
    const { ledger, alice } = galleryLedger();
    const registry = ledger.collection(alice, { name: 'Registry', description: 'Names as data', maximumSupply: 3, jsonSchema, metadata });
    ledger.block(registry);
    registryId = registry.id;
    namesArea = await startNftBase(ledger.events);
  });
  afterAll(() => namesArea.close());

  it('takes names with . and $ literally', async () => {
    expect(await foundNames({ jsonSchema: { $schema: 'https://json-schema.org/draft/2020-12/schema' } })).toEqual([registryId]);
    expect(await foundNames({ jsonSchema: { $id: 'card', properties: { 'size.cm': { type: 'number' } } } })).toEqual([registryId]);
    expect(await foundNames({ jsonSchema: { properties: { size: { cm: { type: 'number' } } } } })).toEqual([]);
    expect(await foundNames({ metadata: { 'a.b': 1 } })).toEqual([registryId]);
    expect(await foundNames({ metadata: { a: { b: 1 } } })).toEqual([]);
  });

  it('takes __proto__, constructor and the empty name literally', async () => {
    expect(await foundNames('{"metadata":{"__proto__":{"origin":"mint"}}}')).toEqual([registryId]);
    expect(await foundNames('{"metadata":{"__proto__":{"origin":"burn"}}}')).toEqual([]);
    expect(await foundNames('{"jsonSchema":{"__proto__":{}}}')).toEqual([]);
    expect(await foundNames({ metadata: { constructor: 'c', '': [null] } })).toEqual([registryId]);
  });

  it('shows the collection as before, without the search form', async () => {
    const { body } = await namesArea.request('GET', `/nft/collections/${registryId}`);
    expect(Object.keys(body.data)).toEqual(['id', 'senderPublicKey', 'name', 'description', 'maximumSupply', 'jsonSchema', 'timestamp']);
    expect(body.data.jsonSchema).toEqual(jsonSchema);
  });
});

describe('POST /nft/collections/search validation', () => {
  it.each([
    [{ name: { $ne: 'x' } }, '"name" must be a string'],
    [{ $where: 'true' }, '"$where" is not allowed'],
    [{ $or: [{ name: 'Cards' }] }, '"$or" is not allowed'],
    ['{"__proto__":{"name":"Cards"}}', '"__proto__" is not allowed'],
    [{ owner: 'x' }, '"owner" is not allowed'],
    [{ maximumSupply: '100' }, '"maximumSupply" must be a number'],
    [{ allowedIssuers: 'abc' }, '"allowedIssuers" must be an array'],
    [{ jsonSchema: [] }, '"jsonSchema" must be of type object'],
    [{ metadata: null }, '"metadata" must be of type object'],
    [{ senderPublicKey: 'abc' }, '"senderPublicKey" length must be 66 characters long'],
    [[], '"value" must be of type object'],
    ['"text"', '"value" must be of type object'],
  ])('answers 422 for %j', async (body, message) => {
    expect(await search(body)).toMatchObject({ status: 422, body: { statusCode: 422, error: 'Unprocessable Entity', message } });
  });

  it('answers 422 for malformed JSON and for bodies nested too deeply', async () => {
    expect((await search('{"name":')).body.message).toBe('Invalid request payload JSON format');
    let nested: Record<string, unknown> = { end: 1 };
    for (let depth = 0; depth < 40; depth++) nested = { level: nested };
    const { status, body } = await search({ metadata: nested });
    expect(status).toBe(422);
    expect(body.message).toMatch(/must not be nested more than 16 levels deep$/);
  });

  it('answers 413 for a body over 64 KiB', async () => {
    expect((await search({ description: 'x'.repeat(70_000) })).status).toBe(413);
  });
});
