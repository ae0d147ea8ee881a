import type { Transaction } from '@ledger-api/ledger';
import { expectMalformedTransactionRefused, startProjectionRunner } from '@ledger-api/ledger/testing';
import { createNftProjection } from '../projection';
import { NFT_BASE_TYPE_GROUP, NftBaseType, rawTransaction, STORE_COLLECTIONS } from '../records';
import { NftLedgerBuilder, type TestWallet } from '../testing/ledger-builder';
import type { AssetDoc, BurnDoc, CollectionDoc, TransferDoc, WalletKeyDoc } from './documents';

async function startRunner() {
  const projection = createNftProjection({ area: 'nft-read-model-test', networkVersion: 23 });
  const test = await startProjectionRunner(projection);
  const { store } = test;
  const names = projection.collections.map((spec) => spec.name);
  const snapshot = async () => Object.fromEntries(await Promise.all(names.map(async (name) => [name, await store.collection(name).find({})])));
  const collection = (id: string) => store.collection<CollectionDoc>(STORE_COLLECTIONS.collections).findById(id);
  const asset = (id: string) => store.collection<AssetDoc>(STORE_COLLECTIONS.assets).findById(id);
  return { ...test, snapshot, collection, asset };
}

/** Alice registers a collection and mints one asset to herself and one to Bob, who has never signed. */
function mintedCollection() {
  const ledger = new NftLedgerBuilder();
  const alice = ledger.wallet('alice');
  const bob = ledger.wallet('bob');
  const carol = ledger.wallet('carol');
  const registered = ledger.collection(alice, {
    name: 'Cards',
    description: 'Trading cards',
    maximumSupply: 10,
    jsonSchema: { properties: { name: { type: 'string' } } },
    metadata: { series: 1 },
  });
  ledger.block(registered);
  const own = ledger.token(alice, registered.id, { name: 'own' });
  const given = ledger.token(alice, registered.id, { name: 'given' }, bob.address);
  ledger.block(own, given);
  return { ledger, alice, bob, carol, registered, own, given };
}

describe('base projection part', () => {
  it('registers a collection with its registrant address and mints to the sender or to the recipient', async () => {
    const { ledger, alice, bob, registered, own, given } = mintedCollection();
    const { handle, collection, asset } = await startRunner();
    await handle(...ledger.events);

    expect(await collection(registered.id)).toMatchObject({
      name: 'Cards',
      description: 'Trading cards',
      maximumSupply: 10,
      metadata: { series: 1 },
      registrantAddress: alice.address,
      currentSupply: 2,
      burnedCount: 0,
      blockHeight: 1,
      sequence: 0,
    });
    expect(rawTransaction((await collection(registered.id))!)).toEqual({
      ...registered,
      blockId: ledger.events[0].block.id,
      blockHeight: 1,
      sequence: 0,
    });
    expect(await asset(own.id)).toMatchObject({
      collectionId: registered.id,
      attributes: { name: 'own' },
      ownerAddress: alice.address,
      burned: false,
      sequence: 0,
    });
    expect(await asset(given.id)).toMatchObject({ ownerAddress: bob.address, senderPublicKey: alice.publicKey, blockHeight: 2, sequence: 1 });
  });

  it('keeps a transfer record and moves every transferred asset to the recipient', async () => {
    const { ledger, alice, carol, own, given } = mintedCollection();
    const { store, handle, asset } = await startRunner();
    const transfer = ledger.transfer(alice, [own.id], carol.address);
    await handle(...ledger.events, ledger.block(transfer));
    expect((await asset(own.id))?.ownerAddress).toBe(carol.address);
    expect((await asset(given.id))?.ownerAddress).not.toBe(carol.address);

    const transferRecord = await store.collection<TransferDoc>(STORE_COLLECTIONS.transfers).findById(transfer.id);
    expect(transferRecord).toMatchObject({ nftIds: [own.id], recipientId: carol.address, senderPublicKey: alice.publicKey, blockHeight: 3 });
    expect(rawTransaction(transferRecord!)).toMatchObject(transfer);
  });

  it('burns an asset once: a burn record, no owner, and one less in supply and maximum supply', async () => {
    const { ledger, alice, carol, registered, own } = mintedCollection();
    const { store, handle, collection, asset } = await startRunner();
    const burn = ledger.burn(alice, own.id);
    await handle(...ledger.events, ledger.block(burn), ledger.block(ledger.burn(alice, own.id), ledger.transfer(alice, [own.id], carol.address)));

    const burnRecord = await store.collection<BurnDoc>(STORE_COLLECTIONS.burns).findById(burn.id);
    expect(burnRecord).toMatchObject({ nftId: own.id, blockHeight: 3 });
    expect(rawTransaction(burnRecord!)).toMatchObject(burn);
    expect(await asset(own.id)).toMatchObject({ burned: true, ownerAddress: null });
    expect(await collection(registered.id)).toMatchObject({ currentSupply: 1, burnedCount: 1, maximumSupply: 10 });
  });

  it('hands the NFTs of an accepted trade to the bidder of the accepted bid', async () => {
    const { ledger, alice, bob, carol, own, given } = mintedCollection();
    const { handle, asset } = await startRunner();
    const auction = ledger.auction(bob, { nftIds: [given.id], startAmount: '5', expiration: { blockHeight: 100 } });
    const carolBid = ledger.bid(carol, auction.id, '6');
    const aliceBid = ledger.bid(alice, auction.id, '7');
    ledger.block(auction);
    ledger.block(carolBid, aliceBid);
    await handle(...ledger.events, ledger.block(ledger.acceptTrade(bob, auction.id, carolBid.id)));
    expect((await asset(given.id))?.ownerAddress).toBe(carol.address);
    expect((await asset(own.id))?.ownerAddress).toBe(alice.address);
  });

  it('learns the public key of every sender of any type group, once', async () => {
    const { ledger, alice, bob } = mintedCollection();
    const { store, handle } = await startRunner();
    await handle(...ledger.events, ledger.block(ledger.transaction(bob, 1, 0, undefined, { amount: '1', recipientId: alice.address })));
    const wallets = await store.collection<WalletKeyDoc>(STORE_COLLECTIONS.wallets).find({});
    expect(wallets).toEqual([
      { _id: alice.address, publicKey: alice.publicKey },
      { _id: bob.address, publicKey: bob.publicKey },
    ]);
  });

  it('returns to exactly the earlier state when blocks are reverted, and ignores redelivered blocks', async () => {
    const { ledger, alice, bob, carol, registered, own, given } = mintedCollection();
    const auction = ledger.auction(bob, { nftIds: [given.id], startAmount: '5', expiration: { blockHeight: 100 } });
    const bid = ledger.bid(carol, auction.id, '6');
    const later = [
      ledger.block(ledger.transfer(alice, [own.id], carol.address)),
      ledger.block(auction, bid),
      ledger.block(ledger.acceptTrade(bob, auction.id, bid.id), ledger.burn(carol, own.id)),
      ledger.block(
        ledger.collection(carol, { name: 'Other', description: 'Other one', maximumSupply: 1, jsonSchema: {} }),
        ledger.token(carol, registered.id, { name: 'late' }),
      ),
    ];
    const { runner, handle, snapshot } = await startRunner();
    const states = [];
    for (const event of ledger.events.slice(0, 2 + later.length)) {
      states.push(await snapshot());
      await handle(event);
    }
    const final = await snapshot();
    await runner.handle(later[3], 1);
    await handle(later[3]);
    expect(await snapshot()).toEqual(final);

    for (const expected of states.reverse()) {
      await handle(ledger.revert());
      expect(await snapshot()).toEqual(expected);
    }
  });
});

describe('base payloads', () => {
  const cards = { name: 'Cards', description: 'Trading cards', maximumSupply: 10, jsonSchema: {} };
  const { collection, token, transfer, burn } = NftBaseType;
  let nested: unknown = 1;
  for (let level = 0; level < 100; level += 1) nested = { level: nested };
  const stranger: TestWallet = { name: 'stranger', publicKey: 'zz'.repeat(33), address: 'AStranger' };

  type Fixture = ReturnType<typeof mintedCollection>;
  const malformed: Array<[what: string, build: (fixture: Fixture) => Transaction, problem: string]> = [
    [
      'a maximum supply written as text',
      ({ ledger, alice }) => ledger.transaction(alice, NFT_BASE_TYPE_GROUP, collection, { nftCollection: { ...cards, maximumSupply: '10' } }),
      'asset.nftCollection.maximumSupply: ',
    ],
    [
      'a collection without its JSON schema',
      ({ ledger, alice }) => ledger.transaction(alice, NFT_BASE_TYPE_GROUP, collection, { nftCollection: { ...cards, jsonSchema: undefined } }),
      'asset.nftCollection.jsonSchema: ',
    ],
    [
      'an allowed issuer that is not a public key',
      ({ ledger, alice }) => ledger.collection(alice, { ...cards, allowedIssuers: ['alice'] }),
      'asset.nftCollection.allowedIssuers[0]: ',
    ],
    ['a sender public key that is not hex', ({ ledger }) => ledger.collection(stranger, cards), 'senderPublicKey: '],
    ['a collection id that is not hex', ({ ledger, alice }) => ledger.token(alice, 'x'.repeat(64), {}), 'asset.nftToken.collectionId: '],
    [
      'attributes that are a list',
      ({ ledger, alice, registered }) =>
        ledger.transaction(alice, NFT_BASE_TYPE_GROUP, token, { nftToken: { collectionId: registered.id, attributes: [] } }),
      'asset.nftToken.attributes: ',
    ],
    [
      'a recipient that is a number',
      ({ ledger, alice, registered }) =>
        ledger.transaction(alice, NFT_BASE_TYPE_GROUP, token, { nftToken: { collectionId: registered.id, attributes: {}, recipientId: 7 } }),
      'asset.nftToken.recipientId: ',
    ],
    [
      'a nonce that is a number',
      ({ ledger, alice, registered }) => ledger.token(alice, registered.id, {}, undefined, { nonce: 5 as unknown as string }),
      'nonce: ',
    ],
    [
      'attributes nested 100 levels deep',
      ({ ledger, alice, registered }) => ledger.token(alice, registered.id, { nested }),
      'must not nest deeper than 64 levels',
    ],
    [
      'one NFT id instead of a list',
      ({ ledger, alice, own }) =>
        ledger.transaction(alice, NFT_BASE_TYPE_GROUP, transfer, { nftTransfer: { nftIds: own.id, recipientId: alice.address } }),
      'asset.nftTransfer.nftIds: ',
    ],
    [
      'a transfer without its recipient',
      ({ ledger, alice, own }) => ledger.transaction(alice, NFT_BASE_TYPE_GROUP, transfer, { nftTransfer: { nftIds: [own.id] } }),
      'asset.nftTransfer.recipientId: ',
    ],
    ['a negative amount', ({ ledger, alice, carol, own }) => ledger.transfer(alice, [own.id], carol.address, { amount: '-1' }), 'amount: '],
    [
      'a null NFT id',
      ({ ledger, alice }) => ledger.transaction(alice, NFT_BASE_TYPE_GROUP, burn, { nftBurn: { nftId: null } }),
      'asset.nftBurn.nftId: ',
    ],
    ['a burn without its asset', ({ ledger, alice }) => ledger.transaction(alice, NFT_BASE_TYPE_GROUP, burn), 'asset: '],
  ];

  it.each(malformed)('refuses %s, naming the block and the transaction, and stores nothing of the block', async (_what, build, problem) => {
    const fixture = mintedCollection();
    const test = await startRunner();
    await test.handle(...fixture.ledger.events);
    const bad = build(fixture);
    const event = fixture.ledger.block(fixture.ledger.transfer(fixture.alice, [fixture.own.id], fixture.carol.address), bad);
    await expectMalformedTransactionRefused(test, event, { transaction: bad, sequence: 1, problem });
  });

  it('applies transactions naming assets and collections it does not hold as given: records kept, nothing else changed', async () => {
    const { ledger, alice, carol, registered, own } = mintedCollection();
    const { handle, store, collection, asset } = await startRunner();
    const missing = 'f'.repeat(64);
    const orphan = ledger.token(alice, missing, { name: 'orphan' });
    const burnOfMissing = ledger.burn(alice, missing);
    const transferOfMissing = ledger.transfer(alice, [missing, own.id], carol.address);
    await handle(...ledger.events, ledger.block(transferOfMissing, burnOfMissing, orphan, ledger.acceptTrade(alice, missing, missing)));

    expect((await asset(own.id))?.ownerAddress).toBe(carol.address);
    expect(await asset(missing)).toBeNull();
    expect(await store.collection<BurnDoc>(STORE_COLLECTIONS.burns).findById(burnOfMissing.id)).toMatchObject({ nftId: missing });
    expect(await store.collection<TransferDoc>(STORE_COLLECTIONS.transfers).findById(transferOfMissing.id)).toMatchObject({
      nftIds: [missing, own.id],
    });
    expect(await asset(orphan.id)).toMatchObject({ collectionId: missing, ownerAddress: alice.address, burned: false });
    expect(await collection(missing)).toBeNull();
    expect(await collection(registered.id)).toMatchObject({ currentSupply: 2, burnedCount: 0 });
  });
});
