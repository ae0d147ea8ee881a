import type { Projection, Transaction } from '@ledger-api/ledger';
import { expectMalformedTransactionRefused, startProjectionRunner } from '@ledger-api/ledger/testing';
import { NFT_EXCHANGE_TYPE_GROUP, NftExchangeType, rawTransaction, STORE_COLLECTIONS } from '../records';
import { WalletNames } from '../records/wallet-names';
import { NftLedgerBuilder } from '../testing/ledger-builder';
import type { AuctionDoc, BidDoc } from './documents';
import { EXCHANGE_COLLECTIONS, createExchangePart } from './projection';

const EXCHANGE_NAMES = EXCHANGE_COLLECTIONS.map((spec) => spec.name);

async function startExchangeRunner() {
  const part = createExchangePart(new WalletNames(23), true);
  const projection: Projection = {
    area: 'nft-exchange-test',
    collections: part.collections,
    projects: part.projects,
    applyTransaction: async (ctx, tx, sequence) => part.applyTransaction(ctx, tx, sequence),
  };
  const test = await startProjectionRunner(projection);
  const snapshot = async () =>
    Object.fromEntries(await Promise.all(EXCHANGE_NAMES.map(async (name) => [name, await test.store.collection(name).find({})])));
  return { ...test, snapshot };
}

/** A seller's auction of two NFTs with bids by two bidders, one block per step. */
function auctionWithBids() {
  const ledger = new NftLedgerBuilder();
  const seller = ledger.wallet('seller');
  const alice = ledger.wallet('alice');
  const bob = ledger.wallet('bob');
  const auction = ledger.auction(seller, { nftIds: ['a'.repeat(64), 'b'.repeat(64)], startAmount: '100', expiration: { blockHeight: 50 } });
  const aliceBid = ledger.bid(alice, auction.id, '120');
  const bobBid = ledger.bid(bob, auction.id, '130');
  ledger.block(auction);
  ledger.block(aliceBid, bobBid);
  return { ledger, seller, alice, bob, auction, aliceBid, bobBid };
}

describe('exchange projection part', () => {
  it('records an auction and its bids as active, the bids listed on the auction in ledger order', async () => {
    const { ledger, seller, auction, aliceBid, bobBid } = auctionWithBids();
    const { store, handle } = await startExchangeRunner();
    await handle(...ledger.events);

    const stored = await store.collection<AuctionDoc>(STORE_COLLECTIONS.auctions).findById(auction.id);
    expect(stored).toMatchObject({
      nftIds: ['a'.repeat(64), 'b'.repeat(64)],
      startAmount: '100',
      expirationHeight: 50,
      sellerAddress: seller.address,
      status: 'active',
      bidIds: [aliceBid.id, bobBid.id],
      blockHeight: 1,
      sequence: 0,
      sortKeys: { startAmount: '0003100' },
    });
    expect(rawTransaction(stored!)).toMatchObject(auction);
    const bid = await store.collection<BidDoc>(STORE_COLLECTIONS.bids).findById(bobBid.id);
    expect(bid).toMatchObject({
      auctionId: auction.id,
      bidAmount: '130',
      status: 'active',
      blockHeight: 2,
      sequence: 1,
      sortKeys: { bidAmount: '0003130' },
    });
  });

  it('cancels a bid, then ends the remaining active bids when the auction is canceled', async () => {
    const { ledger, seller, alice, auction, aliceBid, bobBid } = auctionWithBids();
    const bidCancel = ledger.bidCancel(alice, aliceBid.id);
    ledger.block(bidCancel);
    const auctionCancel = ledger.auctionCancel(seller, auction.id);
    ledger.block(auctionCancel);
    const { store, handle } = await startExchangeRunner();
    await handle(...ledger.events);

    const bids = store.collection<BidDoc>(STORE_COLLECTIONS.bids);
    expect((await bids.findById(aliceBid.id))?.status).toBe('canceled');
    expect((await bids.findById(bobBid.id))?.status).toBe('ended');
    expect((await store.collection<AuctionDoc>(STORE_COLLECTIONS.auctions).findById(auction.id))?.status).toBe('canceled');
    expect(await store.collection(STORE_COLLECTIONS.bidCancels).findById(bidCancel.id)).toMatchObject({ bidId: aliceBid.id, blockHeight: 3 });
    expect(await store.collection(STORE_COLLECTIONS.auctionCancels).findById(auctionCancel.id)).toMatchObject({
      auctionId: auction.id,
      blockHeight: 4,
    });
  });

  it('closes a traded auction, ending all its bids, and ends a bid placed on a closed auction', async () => {
    const { ledger, seller, alice, auction, aliceBid, bobBid } = auctionWithBids();
    const trade = ledger.acceptTrade(seller, auction.id, bobBid.id);
    ledger.block(trade);
    const lateBid = ledger.bid(alice, auction.id, '500');
    ledger.block(lateBid);
    const { store, handle } = await startExchangeRunner();
    await handle(...ledger.events);

    const bids = store.collection<BidDoc>(STORE_COLLECTIONS.bids);
    const statuses = await Promise.all([aliceBid, bobBid, lateBid].map(async (bid) => (await bids.findById(bid.id))?.status));
    expect(statuses).toEqual(['ended', 'ended', 'ended']);
    expect((await store.collection<AuctionDoc>(STORE_COLLECTIONS.auctions).findById(auction.id))?.status).toBe('traded');
    expect(await store.collection(STORE_COLLECTIONS.trades).findById(trade.id)).toMatchObject({
      auctionId: auction.id,
      bidId: bobBid.id,
      senderPublicKey: seller.publicKey,
    });
  });

  it('returns every collection exactly to its earlier state when each transition is reverted', async () => {
    const { ledger, seller, alice, auction, aliceBid, bobBid } = auctionWithBids();
    const { handle, snapshot } = await startExchangeRunner();
    await handle(...ledger.events);
    const transitions = [
      ledger.bidCancel(alice, aliceBid.id),
      ledger.auctionCancel(seller, auction.id),
      ledger.acceptTrade(seller, auction.id, bobBid.id),
      ledger.bid(alice, auction.id, '1'),
    ];
    for (const transition of transitions) {
      const before = await snapshot();
      await handle(ledger.block(transition));
      expect(await snapshot()).not.toEqual(before);
      await handle(ledger.revert());
      expect(await snapshot()).toEqual(before);
    }
  });

  it('changes nothing when a block is delivered again', async () => {
    const { ledger } = auctionWithBids();
    const { runner, handle, snapshot } = await startExchangeRunner();
    await handle(...ledger.events);
    const before = await snapshot();
    expect(await runner.handle(ledger.events[1], 2)).toBe('duplicate');
    expect(await runner.handle(ledger.events[1], 0)).toBe('duplicate');
    expect(await snapshot()).toEqual(before);
  });

  it('ignores transactions of other type groups', async () => {
    const ledger = new NftLedgerBuilder();
    const owner = ledger.wallet('owner');
    ledger.block(
      ledger.collection(owner, { name: 'Cards', description: 'Trading cards', maximumSupply: 10, jsonSchema: {} }),
      ledger.transaction(owner, 1, 0),
    );
    const { handle, snapshot } = await startExchangeRunner();
    await handle(...ledger.events);
    expect(Object.values(await snapshot()).flat()).toEqual([]);
  });
});

describe('exchange payloads', () => {
  const { auction, auctionCancel, bid, bidCancel, acceptTrade } = NftExchangeType;
  const nftIds = ['c'.repeat(64)];

  type Fixture = ReturnType<typeof auctionWithBids>;
  const malformed: Array<[what: string, build: (fixture: Fixture) => Transaction, problem: string]> = [
    [
      'a start amount with a decimal point',
      ({ ledger, seller }) => ledger.auction(seller, { nftIds, startAmount: '1.5', expiration: { blockHeight: 9 } }),
      'asset.nftAuction.startAmount: ',
    ],
    [
      'an expiration without its block height',
      ({ ledger, seller }) =>
        ledger.transaction(seller, NFT_EXCHANGE_TYPE_GROUP, auction, { nftAuction: { nftIds, startAmount: '1', expiration: {} } }),
      'asset.nftAuction.expiration.blockHeight: ',
    ],
    [
      'a null NFT id',
      ({ ledger, seller }) =>
        ledger.transaction(seller, NFT_EXCHANGE_TYPE_GROUP, auction, {
          nftAuction: { nftIds: [null], startAmount: '1', expiration: { blockHeight: 9 } },
        }),
      'asset.nftAuction.nftIds[0]: ',
    ],
    [
      'a fee with a decimal point',
      ({ ledger, seller }) => ledger.auction(seller, { nftIds, startAmount: '1', expiration: { blockHeight: 9 } }, { fee: '0.5' }),
      'fee: ',
    ],
    [
      'an auction cancel without its auction',
      ({ ledger, seller }) => ledger.transaction(seller, NFT_EXCHANGE_TYPE_GROUP, auctionCancel, { nftAuctionCancel: {} }),
      'asset.nftAuctionCancel.auctionId: ',
    ],
    [
      'a bid amount that is a number',
      ({ ledger, alice, auction: placed }) =>
        ledger.transaction(alice, NFT_EXCHANGE_TYPE_GROUP, bid, { nftBid: { auctionId: placed.id, bidAmount: 130 } }),
      'asset.nftBid.bidAmount: ',
    ],
    ['a bid on an auction id one character short', ({ ledger, alice }) => ledger.bid(alice, 'a'.repeat(63), '130'), 'asset.nftBid.auctionId: '],
    [
      'a bid cancel naming its bid by number',
      ({ ledger, alice }) => ledger.transaction(alice, NFT_EXCHANGE_TYPE_GROUP, bidCancel, { nftBidCancel: { bidId: 1 } }),
      'asset.nftBidCancel.bidId: ',
    ],
    [
      'a trade without its bid',
      ({ ledger, seller, auction: placed }) =>
        ledger.transaction(seller, NFT_EXCHANGE_TYPE_GROUP, acceptTrade, { nftAcceptTrade: { auctionId: placed.id } }),
      'asset.nftAcceptTrade.bidId: ',
    ],
    [
      'a trade whose payload is text',
      ({ ledger, seller }) => ledger.transaction(seller, NFT_EXCHANGE_TYPE_GROUP, acceptTrade, { nftAcceptTrade: 'accepted' }),
      'asset.nftAcceptTrade: ',
    ],
  ];

  it.each(malformed)('refuses %s, naming the block and the transaction, and stores nothing of the block', async (_what, build, problem) => {
    const fixture = auctionWithBids();
    const test = await startExchangeRunner();
    await test.handle(...fixture.ledger.events);
    const bad = build(fixture);
    const event = fixture.ledger.block(fixture.ledger.bid(fixture.bob, fixture.auction.id, '140'), bad);
    await expectMalformedTransactionRefused(test, event, { transaction: bad, sequence: 1, problem });
  });

  it('applies transactions naming auctions and bids it does not hold as given: records kept, nothing else changed', async () => {
    const { ledger, seller, alice, auction: placed, aliceBid, bobBid } = auctionWithBids();
    const missing = 'f'.repeat(64);
    const lostBid = ledger.bid(alice, missing, '5');
    const { store, handle } = await startExchangeRunner();
    await handle(
      ...ledger.events,
      ledger.block(
        ledger.auctionCancel(seller, missing),
        lostBid,
        ledger.bidCancel(alice, missing),
        ledger.acceptTrade(seller, missing, aliceBid.id),
      ),
    );

    expect(await store.collection<BidDoc>(STORE_COLLECTIONS.bids).findById(lostBid.id)).toMatchObject({ auctionId: missing, status: 'ended' });
    expect(await store.collection<BidDoc>(STORE_COLLECTIONS.bids).findById(aliceBid.id)).toMatchObject({ status: 'active' });
    expect(await store.collection<AuctionDoc>(STORE_COLLECTIONS.auctions).findById(placed.id)).toMatchObject({
      status: 'active',
      bidIds: [aliceBid.id, bobBid.id],
    });
    expect(await store.collection<AuctionDoc>(STORE_COLLECTIONS.auctions).findById(missing)).toBeNull();
    expect(await store.collection(STORE_COLLECTIONS.auctionCancels).count({ auctionId: missing })).toBe(1);
    expect(await store.collection(STORE_COLLECTIONS.bidCancels).count({ bidId: missing })).toBe(1);
    expect(await store.collection(STORE_COLLECTIONS.trades).count({ auctionId: missing })).toBe(1);
  });
});
