import type { TestArea } from '@ledger-api/runtime/testing';
import { galleryLedger, ids, startNftBase, type Gallery } from '../testing/gallery';

let gallery: Gallery;
let area: TestArea;
let transferIds: string[];

beforeAll(async () => {
  gallery = galleryLedger();
  const { ledger, alice, bob, carol, dave, dragon, knight, stamp } = gallery;
  const transfers = [ledger.transfer(alice, [dragon.id], carol.address), ledger.transfer(bob, [knight.id, stamp.id], dave.address)];
  transferIds = transfers.map((transfer) => transfer.id);
  ledger.block(transfers[0]);
  ledger.block(transfers[1]);
  area = await startNftBase(gallery.ledger.events);
});
afterAll(() => area.close());

describe('GET /nft/transfers', () => {
  it('lists transfers in ledger order', async () => {
    const { body } = await area.request('GET', '/nft/transfers');
    expect(ids(body)).toEqual(transferIds);
    expect(body.data[1]).toEqual({
      id: transferIds[1],
      senderPublicKey: gallery.bob.publicKey,
      nftTransfer: { nftIds: [gallery.knight.id, gallery.stamp.id], recipientId: gallery.dave.address },
      timestamp: { epoch: 40, unix: 1_490_101_240, human: '2017-03-21T13:00:40.000Z' },
    });
    expect(body.meta).toMatchObject({
      totalCountIsEstimate: true,
      count: 2,
      totalCount: 2,
      self: '/nft/transfers?transform=true&page=1&limit=100',
    });
  });

  it('orders and transforms on request', async () => {
    const { body } = await area.request('GET', '/nft/transfers?orderBy=blockHeight:desc&transform=false');
    expect(body.data.map((transfer: { id: string; blockHeight: number }) => [transfer.id, transfer.blockHeight])).toEqual([
      [transferIds[1], 5],
      [transferIds[0], 4],
    ]);
    expect(body.data[0]).toMatchObject({
      typeGroup: 9000,
      type: 2,
      asset: { nftTransfer: { nftIds: [gallery.knight.id, gallery.stamp.id], recipientId: gallery.dave.address } },
    });
    expect(body.data[0]).not.toHaveProperty('timestamp');
  });

  it('pages with limit and offset', async () => {
    const { body } = await area.request('GET', '/nft/transfers?limit=1&offset=1');
    expect(ids(body)).toEqual([transferIds[1]]);
    expect(body.meta).toMatchObject({ count: 1, totalCount: 2, pageCount: 2, next: '/nft/transfers?limit=1&offset=1&transform=true&page=2' });
  });
});

describe('GET /nft/transfers/{id}', () => {
  it('answers the transfer and its raw transaction, for an id in any letter case', async () => {
    expect((await area.request('GET', `/nft/transfers/${transferIds[0].toUpperCase()}`)).body.data).toEqual({
      id: transferIds[0],
      senderPublicKey: gallery.alice.publicKey,
      nftTransfer: { nftIds: [gallery.dragon.id], recipientId: gallery.carol.address },
      timestamp: { epoch: 32, unix: 1_490_101_232, human: '2017-03-21T13:00:32.000Z' },
    });
    expect((await area.request('GET', `/nft/transfers/${transferIds[0]}?transform=false`)).body.data).toMatchObject({
      id: transferIds[0],
      typeGroup: 9000,
      type: 2,
      blockHeight: 4,
      sequence: 0,
    });
  });

  it('answers 404 for an id no transfer has and 422 for a malformed id or flag', async () => {
    expect(await area.request('GET', `/nft/transfers/${gallery.dragon.id}`)).toMatchObject({
      status: 404,
      body: { statusCode: 404, error: 'Not Found', message: 'Transfer not found' },
    });
    expect((await area.request('GET', `/nft/transfers/${transferIds[0].slice(1)}`)).body.message).toBe('"id" length must be 64 characters long');
    expect((await area.request('GET', `/nft/transfers/${transferIds[0].slice(1)}g`)).body.message).toBe(
      '"id" must only contain hexadecimal characters',
    );
    expect((await area.request('GET', `/nft/transfers/${transferIds[0]}?transform=1`)).body.message).toBe('"transform" must be a boolean');
  });
});

describe('a reverted transfer', () => {
  it('is gone from the list and by id', async () => {
    const { ledger, carol, dragon } = gallery;
    const transfer = ledger.transfer(carol, [dragon.id], gallery.alice.address);
    await area.apply([ledger.block(transfer)]);
    expect(ids((await area.request('GET', '/nft/transfers')).body)).toEqual([...transferIds, transfer.id]);
    await area.apply([ledger.revert()]);
    expect(ids((await area.request('GET', '/nft/transfers')).body)).toEqual(transferIds);
    expect((await area.request('GET', `/nft/transfers/${transfer.id}`)).status).toBe(404);
  });
});
