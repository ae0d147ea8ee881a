import type { TestArea } from '@ledger-api/runtime/testing';
import { galleryLedger, ids, startNftBase, type Gallery } from '../testing/gallery';

let gallery: Gallery;
let area: TestArea;

beforeEach(async () => {
  gallery = galleryLedger();
  area = await startNftBase(gallery.ledger.events);
});
afterEach(() => area.close());

const get = (path: string) => area.request('GET', path);
const owners = async () =>
  Object.fromEntries((await get('/nft/assets')).body.data.map((asset: { id: string; ownerPublicKey?: string }) => [asset.id, asset.ownerPublicKey]));

describe('GET /nft/assets', () => {
  it('lists assets in ledger order with creator, collection, attributes and timestamp', async () => {
    const { alice, bob, cards, dragon, knight, ghost, stamp } = gallery;
    const { body } = await get('/nft/assets');
    expect(ids(body)).toEqual([dragon.id, knight.id, ghost.id, stamp.id]);
    expect(body.data[0]).toEqual({
      id: dragon.id,
      ownerPublicKey: alice.publicKey,
      senderPublicKey: alice.publicKey,
      collectionId: cards.id,
      attributes: dragon.asset!.nftToken.attributes,
      timestamp: { epoch: 16, unix: 1_490_101_216, human: '2017-03-21T13:00:16.000Z' },
    });
    expect(body.data[1]).toMatchObject({ ownerPublicKey: bob.publicKey, senderPublicKey: alice.publicKey });
    expect(Object.keys(body.data[0])).toEqual(['id', 'ownerPublicKey', 'senderPublicKey', 'collectionId', 'attributes', 'timestamp']);
  });

  it("leaves ownerPublicKey out until the owner's key is revealed, and shows BURNED once burned", async () => {
    const { ledger, alice, dave, ghost, dragon } = gallery;
    expect((await owners())[ghost.id]).toBeUndefined();
    expect((await get('/nft/assets')).body.data[2]).not.toHaveProperty('ownerPublicKey');
    await area.apply([
      ledger.block(ledger.transaction(dave, 1, 0, undefined, { amount: '1', recipientId: alice.address }), ledger.burn(alice, dragon.id)),
    ]);
    expect(await owners()).toMatchObject({ [ghost.id]: dave.publicKey, [dragon.id]: 'BURNED' });
  });

  it('answers raw transactions with transform=false', async () => {
    const { body } = await get('/nft/assets?transform=false&limit=1');
    expect(body.data).toEqual([{ ...gallery.dragon, blockId: expect.any(String), blockHeight: 2, sequence: 0 }]);
  });
});

describe('GET /nft/assets/{id}', () => {
  it('answers the asset without senderPublicKey', async () => {
    const { knight, bob, cards } = gallery;
    const { status, body } = await get(`/nft/assets/${knight.id.toUpperCase()}`);
    expect(status).toBe(200);
    expect(body.data).toEqual({
      id: knight.id,
      ownerPublicKey: bob.publicKey,
      collectionId: cards.id,
      attributes: knight.asset!.nftToken.attributes,
      timestamp: { epoch: 16, unix: 1_490_101_216, human: '2017-03-21T13:00:16.000Z' },
    });
  });

  it('answers the raw transaction with transform=false, 404 when unknown and 422 when malformed', async () => {
    expect((await get(`/nft/assets/${gallery.stamp.id}?transform=false`)).body.data).toEqual({
      ...gallery.stamp,
      blockId: expect.any(String),
      blockHeight: 3,
      sequence: 0,
    });
    expect(await get(`/nft/assets/${'4'.repeat(64)}`)).toMatchObject({
      status: 404,
      body: { statusCode: 404, error: 'Not Found', message: 'Asset not found' },
    });
    expect((await get(`/nft/assets/${'z'.repeat(64)}`)).body).toEqual({
      statusCode: 422,
      error: 'Unprocessable Entity',
      message: '"id" must only contain hexadecimal characters',
    });
  });
});

describe('GET /nft/assets/{id}/wallets', () => {
  it("answers the current owner's base-form wallet with owned assets in ledger order", async () => {
    const { bob, stamps, knight, stamp } = gallery;
    const { body } = await get(`/nft/assets/${stamp.id}/wallets`);
    expect(body.data).toEqual({
      address: bob.address,
      publicKey: bob.publicKey,
      nft: {
        collections: {
          [stamps.id]: {
            currentSupply: 1,
            nftCollectionAsset: {
              name: 'Stamps (1840)',
              description: 'Postage stamps',
              maximumSupply: 5,
              jsonSchema: stamps.asset!.nftCollection.jsonSchema,
            },
          },
        },
        assetsIds: [knight.id, stamp.id],
      },
    });
  });

  it('leaves publicKey out for an owner that never signed', async () => {
    const { body } = await get(`/nft/assets/${gallery.ghost.id}/wallets`);
    expect(body.data).toEqual({ address: gallery.dave.address, nft: { collections: {}, assetsIds: [gallery.ghost.id] } });
  });

  it('answers 404 for a burned or unknown asset', async () => {
    const { ledger, alice, dragon } = gallery;
    await area.apply([ledger.block(ledger.burn(alice, dragon.id))]);
    for (const id of [dragon.id, '5'.repeat(64)]) {
      expect(await get(`/nft/assets/${id}/wallets`)).toMatchObject({ status: 404, body: { message: 'Asset not found or it was burned' } });
    }
  });
});

describe('GET /nft/assets/wallet/{id}', () => {
  it("lists the wallet's assets, and an empty page for a key that owns nothing", async () => {
    const { bob, carol, knight, stamp } = gallery;
    const { body } = await get(`/nft/assets/wallet/${bob.publicKey.toUpperCase()}`);
    expect(ids(body)).toEqual([knight.id, stamp.id]);
    expect(body.meta.self).toBe(
      `/nft/assets/wallet/${bob.publicKey.toUpperCase()}?transform=true&inAuction=false&inExpiredAuction=false&page=1&limit=100`,
    );
    const empty = await get(`/nft/assets/wallet/${carol.publicKey}`);
    expect(empty).toMatchObject({ status: 200, body: { data: [], meta: { count: 0, totalCount: 0, pageCount: 1 } } });
  });

  it('answers 422 for a malformed key or flag', async () => {
    expect((await get('/nft/assets/wallet/02abc')).body.message).toBe('"id" length must be 66 characters long');
    expect((await get(`/nft/assets/wallet/${gallery.bob.publicKey}?inAuction=yes`)).body.message).toBe('"inAuction" must be a boolean');
  });

  it('follows transfers and accepted trades', async () => {
    const { ledger, alice, bob, carol, dragon, knight } = gallery;
    const auction = ledger.auction(bob, { nftIds: [knight.id], startAmount: '10', expiration: { blockHeight: 99 } });
    const bid = ledger.bid(alice, auction.id, '12');
    await area.apply([
      ledger.block(ledger.transfer(alice, [dragon.id], carol.address)),
      ledger.block(auction, bid),
      ledger.block(ledger.acceptTrade(bob, auction.id, bid.id)),
    ]);
    expect(ids((await get(`/nft/assets/wallet/${carol.publicKey}`)).body)).toEqual([dragon.id]);
    expect(ids((await get(`/nft/assets/wallet/${alice.publicKey}`)).body)).toEqual([knight.id]);
    expect((await get(`/nft/assets/${knight.id}/wallets`)).body.data.address).toBe(alice.address);
  });
});

describe('GET /nft/assets/wallet/{id} auction flags', () => {
  /** Alice auctions the dragon until height 7 (the gallery ends at 3); Bob auctions the knight and cancels. */
  async function auctions() {
    const { ledger, alice, bob, dragon, knight } = gallery;
    const dragonAuction = ledger.auction(alice, { nftIds: [dragon.id], startAmount: '1', expiration: { blockHeight: 7 } });
    const knightAuction = ledger.auction(bob, { nftIds: [knight.id], startAmount: '1', expiration: { blockHeight: 99 } });
    await area.apply([ledger.block(dragonAuction, knightAuction), ledger.block(ledger.auctionCancel(bob, knightAuction.id))]);
    return { dragonAuction };
  }
  const listed = async (key: string, flags: string) => ids((await get(`/nft/assets/wallet/${key}?${flags}`)).body);

  it('narrows to assets in active auctions not expired yet, or in any active auction', async () => {
    const { ledger, alice, bob, dragon } = gallery;
    await auctions();
    expect(await listed(alice.publicKey, 'inAuction=true')).toEqual([dragon.id]);
    expect(await listed(bob.publicKey, 'inAuction=true&inExpiredAuction=true')).toEqual([]);
    expect(await listed(alice.publicKey, 'inExpiredAuction=true')).toEqual([dragon.id]);

    await area.apply(ledger.emptyBlocks(1));
    expect(await listed(alice.publicKey, 'inAuction=true')).toEqual([dragon.id]);
    await area.apply(ledger.emptyBlocks(1));
    expect(await listed(alice.publicKey, 'inAuction=true')).toEqual([]);
    expect(await listed(alice.publicKey, 'inAuction=true&inExpiredAuction=true')).toEqual([dragon.id]);
  });

  it('drops assets whose auction closed by an accepted trade', async () => {
    const { ledger, alice, carol } = gallery;
    const { dragonAuction } = await auctions();
    const bid = ledger.bid(carol, dragonAuction.id, '3');
    await area.apply([ledger.block(bid), ledger.block(ledger.acceptTrade(alice, dragonAuction.id, bid.id))]);
    expect(await listed(alice.publicKey, 'inAuction=true&inExpiredAuction=true')).toEqual([]);
    expect(await listed(carol.publicKey, 'inAuction=true&inExpiredAuction=true')).toEqual([]);
  });
});
