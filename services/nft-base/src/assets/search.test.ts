import type { TestArea } from '@ledger-api/runtime';
import { galleryLedger, ids, startNftBase, type Gallery } from '../testing/gallery';

let gallery: Gallery;
let area: TestArea;

beforeAll(async () => {
  gallery = galleryLedger();
  area = await startNftBase(gallery.ledger.events);
});
afterAll(() => area.close());

const search = (body: unknown, query = '') => area.request('POST', `/nft/assets/search${query}`, body);
const found = async (body: unknown) => {
  const response = await search(body);
  expect(response.status).toBe(200);
  return ids(response.body);
};

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
    [{ name: { $regex: '.*' } }, '"name.$regex" is not allowed'],
    [{ $where: 'true' }, '"$where" is not allowed'],
    [{ $expr: { $eq: [1, 1] } }, '"$expr" is not allowed'],
    [{ 'stats.hp': 100 }, '"stats.hp" is not allowed'],
    [{ tags: [{ $in: ['fire'] }] }, '"tags.0.$in" is not allowed'],
    [{ '': 1 }, '"" is not allowed'],
    [['Dragon'], '"value" must be of type object'],
    [7, '"value" must be of type object'],
  ])('answers 422 for %j', async (body, message) => {
    expect(await search(body)).toMatchObject({ status: 422, body: { statusCode: 422, error: 'Unprocessable Entity', message } });
  });

  it('validates the query before the body', async () => {
    expect((await search({ $where: 'x' }, '?limit=0')).body.message).toBe('"limit" must be greater than or equal to 1');
    expect((await search({}, '?orderBy=name:asc')).body.message).toBe("Unknown orderBy property 'name'");
  });
});
