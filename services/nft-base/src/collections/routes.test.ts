import type { TestArea } from '@ledger-api/runtime/testing';
import { galleryLedger, ids, startNftBase, type Gallery } from '../testing/gallery';

let gallery: Gallery;
let area: TestArea;

beforeEach(async () => {
  gallery = galleryLedger();
  area = await startNftBase(gallery.ledger.events);
});
afterEach(() => area.close());

describe('GET /nft/collections', () => {
  it('lists collections in ledger order with the paged envelope', async () => {
    const { status, body } = await area.request('GET', '/nft/collections');
    expect(status).toBe(200);
    expect(ids(body)).toEqual([gallery.cards.id, gallery.stamps.id]);
    const link = '/nft/collections?transform=true&page=1&limit=100';
    expect(body.meta).toEqual({
      totalCountIsEstimate: true,
      count: 2,
      pageCount: 1,
      totalCount: 2,
      next: null,
      previous: null,
      self: link,
      first: link,
      last: link,
    });
  });

  it('pages with links that carry what the client sent first', async () => {
    const { body } = await area.request('GET', '/nft/collections?limit=1&page=2');
    expect(ids(body)).toEqual([gallery.stamps.id]);
    expect(body.meta).toMatchObject({
      count: 1,
      pageCount: 2,
      totalCount: 2,
      next: null,
      previous: '/nft/collections?limit=1&page=1&transform=true',
      self: '/nft/collections?limit=1&page=2&transform=true',
      last: '/nft/collections?limit=1&page=2&transform=true',
    });
  });

  it('answers raw ledger transactions with transform=false', async () => {
    const { body } = await area.request('GET', '/nft/collections?transform=FALSE');
    expect(body.data[0]).toEqual({ ...gallery.cards, blockId: expect.any(String), blockHeight: 1, sequence: 0 });
    expect(body.meta.self).toBe('/nft/collections?transform=FALSE&page=1&limit=100');
  });
});

describe('GET /nft/collections/{id}', () => {
  it('answers the collection, looking the id up lower-cased', async () => {
    const { cards, alice } = gallery;
    const { status, body } = await area.request('GET', `/nft/collections/${cards.id.toUpperCase()}`);
    expect(status).toBe(200);
    expect(body).toEqual({
      data: {
        id: cards.id,
        senderPublicKey: alice.publicKey,
        name: 'Cards',
        description: 'Trading cards',
        maximumSupply: 100,
        jsonSchema: cards.asset!.nftCollection.jsonSchema,
        timestamp: { epoch: 8, unix: 1_490_101_208, human: '2017-03-21T13:00:08.000Z' },
      },
    });
  });

  it('answers the raw transaction with transform=false', async () => {
    const { body } = await area.request('GET', `/nft/collections/${gallery.stamps.id}?transform=false`);
    expect(body.data).toEqual({ ...gallery.stamps, blockId: expect.any(String), blockHeight: 1, sequence: 1 });
    expect(body.data).not.toHaveProperty('timestamp');
  });

  it('answers 404 for an unknown id and 422 for a malformed one', async () => {
    expect(await area.request('GET', `/nft/collections/${'0'.repeat(64)}`)).toMatchObject({
      status: 404,
      body: { statusCode: 404, error: 'Not Found', message: 'Collection not found' },
    });
    expect((await area.request('GET', '/nft/collections/abc')).body).toEqual({
      statusCode: 422,
      error: 'Unprocessable Entity',
      message: '"id" length must be 64 characters long',
    });
    expect((await area.request('GET', `/nft/collections/${'g'.repeat(64)}`)).status).toBe(422);
    expect((await area.request('GET', '/nft/collections/xyz')).body).toEqual({
      statusCode: 422,
      error: 'Unprocessable Entity',
      message: '"id" must only contain hexadecimal characters',
    });
    expect((await area.request('GET', `/nft/collections/${gallery.cards.id}?limit=1`)).body.message).toBe('"limit" is not allowed');
  });
});

describe('GET /nft/collections/{id}/schema', () => {
  it('spreads the jsonSchema between id/senderPublicKey and timestamp, which win on a clash', async () => {
    const { stamps, bob } = gallery;
    const { body } = await area.request('GET', `/nft/collections/${stamps.id}/schema`);
    expect(body.data).toEqual({
      id: stamps.id,
      senderPublicKey: bob.publicKey,
      type: 'object',
      properties: { country: { type: 'string' } },
      required: ['country'],
      timestamp: { epoch: 8, unix: 1_490_101_208, human: '2017-03-21T13:00:08.000Z' },
    });
    expect(Object.keys(body.data)).toEqual(['id', 'senderPublicKey', 'type', 'properties', 'required', 'timestamp']);
  });

  it('answers the raw transaction with transform=false and 404 for an unknown collection', async () => {
    const raw = await area.request('GET', `/nft/collections/${gallery.cards.id}/schema?transform=false`);
    expect(raw.body.data).toMatchObject({ id: gallery.cards.id, asset: gallery.cards.asset, blockHeight: 1 });
    expect((await area.request('GET', `/nft/collections/${'1'.repeat(64)}/schema`)).body.message).toBe('Collection not found');
  });
});

describe('GET /nft/collections/{id}/wallets', () => {
  it("answers the registrant's base-form wallet", async () => {
    const { cards, alice, dragon } = gallery;
    const { status, body } = await area.request('GET', `/nft/collections/${cards.id}/wallets`);
    expect(status).toBe(200);
    expect(body.data).toEqual({
      address: alice.address,
      publicKey: alice.publicKey,
      nft: {
        collections: {
          [cards.id]: {
            currentSupply: 3,
            nftCollectionAsset: {
              name: 'Cards',
              description: 'Trading cards',
              maximumSupply: 100,
              jsonSchema: cards.asset!.nftCollection.jsonSchema,
            },
          },
        },
        assetsIds: [dragon.id],
      },
    });
  });

  it('counts live supply and takes burns off the maximum supply', async () => {
    const { ledger, cards, alice, bob, knight, dragon } = gallery;
    await area.apply([ledger.block(ledger.burn(alice, dragon.id)), ledger.block(ledger.burn(bob, knight.id))]);
    const { body } = await area.request('GET', `/nft/collections/${cards.id}/wallets`);
    expect(body.data.nft.collections[cards.id]).toMatchObject({ currentSupply: 1, nftCollectionAsset: { maximumSupply: 98 } });
    expect(body.data.nft.assetsIds).toEqual([]);
  });

  it('answers 404 for an unknown collection and refuses query parameters', async () => {
    expect((await area.request('GET', `/nft/collections/${'2'.repeat(64)}/wallets`)).body.message).toBe('Collection not found');
    expect((await area.request('GET', `/nft/collections/${gallery.cards.id}/wallets?transform=true`)).body.message).toBe(
      '"transform" is not allowed',
    );
  });
});

describe('GET /nft/collections/{id}/assets', () => {
  it("lists the collection's assets in ledger order, and 404 for an unknown collection", async () => {
    const { cards, stamps, dragon, knight, ghost, stamp } = gallery;
    expect(ids((await area.request('GET', `/nft/collections/${cards.id}/assets`)).body)).toEqual([dragon.id, knight.id, ghost.id]);
    const { body } = await area.request('GET', `/nft/collections/${stamps.id}/assets?orderBy=id:desc`);
    expect(ids(body)).toEqual([stamp.id]);
    expect(body.meta.self).toBe(`/nft/collections/${stamps.id}/assets?orderBy=id%3Adesc&transform=true&page=1&limit=100`);
    expect(await area.request('GET', `/nft/collections/${'3'.repeat(64)}/assets`)).toMatchObject({
      status: 404,
      body: { message: 'Collection not found' },
    });
  });
});
