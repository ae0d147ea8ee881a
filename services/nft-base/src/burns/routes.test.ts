import type { TestArea } from '@ledger-api/runtime/testing';
import { galleryLedger, ids, startNftBase, type Gallery } from '../testing/gallery';

let gallery: Gallery;
let area: TestArea;
let burnIds: string[];

beforeAll(async () => {
  gallery = galleryLedger();
  const { ledger, alice, bob, dragon, knight } = gallery;
  const burns = [ledger.burn(alice, dragon.id), ledger.burn(bob, knight.id)];
  burnIds = burns.map((burn) => burn.id);
  ledger.block(burns[0]);
  ledger.block(burns[1]);
  area = await startNftBase(gallery.ledger.events);
});
afterAll(() => area.close());

describe('GET /nft/burns', () => {
  it('lists burns in ledger order', async () => {
    const { body } = await area.request('GET', '/nft/burns');
    expect(ids(body)).toEqual(burnIds);
    expect(body.data[1]).toEqual({
      id: burnIds[1],
      senderPublicKey: gallery.bob.publicKey,
      nftBurn: { nftId: gallery.knight.id },
      timestamp: { epoch: 40, unix: 1_490_101_240, human: '2017-03-21T13:00:40.000Z' },
    });
    expect(body.meta).toMatchObject({ totalCountIsEstimate: true, count: 2, totalCount: 2, self: '/nft/burns?transform=true&page=1&limit=100' });
  });

  it('orders and transforms on request', async () => {
    const { body } = await area.request('GET', '/nft/burns?orderBy=blockHeight:desc&transform=false');
    expect(body.data.map((burn: { id: string; blockHeight: number }) => [burn.id, burn.blockHeight])).toEqual([
      [burnIds[1], 5],
      [burnIds[0], 4],
    ]);
    expect(body.data[0]).toMatchObject({ typeGroup: 9000, type: 3, asset: { nftBurn: { nftId: gallery.knight.id } } });
    expect(body.data[0]).not.toHaveProperty('timestamp');
  });
});

describe('GET /nft/burns/{id}', () => {
  it('answers the burn, its raw transaction, 404 and 422', async () => {
    expect((await area.request('GET', `/nft/burns/${burnIds[0]}`)).body.data).toMatchObject({
      id: burnIds[0],
      nftBurn: { nftId: gallery.dragon.id },
    });
    expect((await area.request('GET', `/nft/burns/${burnIds[0]}?transform=false`)).body.data).toMatchObject({
      id: burnIds[0],
      blockHeight: 4,
      sequence: 0,
    });
    expect(await area.request('GET', `/nft/burns/${gallery.dragon.id}`)).toMatchObject({
      status: 404,
      body: { statusCode: 404, error: 'Not Found', message: 'Burn not found' },
    });
    expect((await area.request('GET', `/nft/burns/${burnIds[0]}?transform=1`)).body.message).toBe('"transform" must be a boolean');
  });
});
