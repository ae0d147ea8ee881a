import type { LedgerEvent, Transaction } from '@ledger-api/ledger';
import { NftLedgerBuilder } from '@ledger-api/nft-read-model/testing';
import { startTestArea, type TestArea } from '@ledger-api/runtime/testing';
import { nftExchangeArea } from './service';
import { idsOf } from './testing/exchange-ledger';

/** An auction of one NFT with a bid by Alice, at height 4. */
function baseLedger() {
  const ledger = new NftLedgerBuilder();
  const [seller, alice, bob] = ['seller', 'alice', 'bob'].map((name) => ledger.wallet(name));
  const collection = ledger.collection(seller, { name: 'Cards', description: 'Trading cards', maximumSupply: 10, jsonSchema: {} });
  ledger.block(collection);
  const tokens = [ledger.token(seller, collection.id, {}), ledger.token(seller, collection.id, {})];
  ledger.block(...tokens);
  const nfts = tokens.map((token) => token.id);
  const auction = ledger.auction(seller, { nftIds: [nfts[0]], startAmount: '10', expiration: { blockHeight: 7 } });
  ledger.block(auction);
  const bid = ledger.bid(alice, auction.id, '12');
  ledger.block(bid);
  return { ledger, seller, alice, bob, nfts, auction, bid, baseEvents: [...ledger.events] };
}

type Base = ReturnType<typeof baseLedger>;

/** Every answer a state change can show in: lists, searches with bids, and both wallets. */
async function answers(area: TestArea, base: Base) {
  const requests: Array<[method: 'GET' | 'POST', path: string]> = [
    ['GET', '/nft/exchange/auctions'],
    ['GET', '/nft/exchange/auctions?expired=true'],
    ['GET', '/nft/exchange/auctions/canceled'],
    ['GET', '/nft/exchange/bids'],
    ['GET', '/nft/exchange/bids/canceled'],
    ['GET', '/nft/exchange/trades'],
    ['GET', `/nft/exchange/auctions/${base.auction.id}/wallets`],
    ['GET', `/nft/exchange/bids/${base.bid.id}/wallets`],
    ['POST', '/nft/exchange/auctions/search?includeBids=true'],
    ['POST', '/nft/exchange/auctions/search?includeBids=true&canceledBids=true&onlyActive=true'],
  ];
  return Promise.all(
    requests.map(async ([method, path]) => [method, path, (await area.request(method, path, method === 'POST' ? {} : undefined)).body]),
  );
}

let base: Base;
let reference: TestArea;
let expected: Awaited<ReturnType<typeof answers>>;
beforeAll(async () => {
  base = baseLedger();
  reference = await startTestArea(nftExchangeArea, base.baseEvents);
  expected = await answers(reference, base);
});
afterAll(() => reference.close());

/**
 * Applies one block on top of the base ledger, lets the test look at the new
 * state, reverts the block, and compares every answer with an area that never
 * saw it. The area under test answers nothing before the block, so no page
 * cached for the earlier ledger state can stand in for a real revert.
 */
async function applyAndRevert(transactions: (base: Base) => Transaction[], inspect: (area: TestArea) => Promise<void>) {
  // The builder takes the block back at once, so a failing test leaves it at the base height.
  const appliedBlock = base.ledger.block(...transactions(base));
  const revertedBlock = base.ledger.revert();
  const area = await startTestArea(nftExchangeArea, base.baseEvents);
  try {
    await area.apply([appliedBlock]);
    await inspect(area);
    await area.apply([revertedBlock]);
    expect(await answers(area, base)).toEqual(expected);
  } finally {
    await area.close();
  }
}

const activeBidIds = async (area: TestArea) => {
  const { body } = await area.request('POST', '/nft/exchange/auctions/search?includeBids=true', {});
  return Object.fromEntries(
    body.data.map((auction: { id: string; nftAuction: { bids: Array<{ id: string }> } }) => [
      auction.id,
      auction.nftAuction.bids.map((bid) => bid.id),
    ]),
  );
};
const walletAuctions = async (area: TestArea) =>
  (await area.request('GET', `/nft/exchange/auctions/${base.auction.id}/wallets`)).body.data.nft.exchange.auctions;

describe('exchange state transitions and their reverts', () => {
  it('starts with an active auction holding an active bid', async () => {
    expect(await activeBidIds(reference)).toEqual({ [base.auction.id]: [base.bid.id] });
    expect(Object.keys(await walletAuctions(reference))).toEqual([base.auction.id]);
  });

  it('auction created: listed as active and in the seller wallet', async () => {
    let second: Transaction | undefined;
    await applyAndRevert(
      ({ ledger, seller, nfts }) => [(second = ledger.auction(seller, { nftIds: [nfts[1]], startAmount: '5', expiration: { blockHeight: 99 } }))],
      async (area) => {
        expect(idsOf((await area.request('GET', '/nft/exchange/auctions')).body)).toEqual([base.auction.id, second?.id]);
        expect(await walletAuctions(area)).toMatchObject({ [String(second?.id)]: { nftId: base.nfts[1], nftIds: [base.nfts[1]], bids: [] } });
      },
    );
  });

  it('bid created: active on its auction, in ledger order', async () => {
    let second: Transaction | undefined;
    await applyAndRevert(
      ({ ledger, bob, auction }) => [(second = ledger.bid(bob, auction.id, '15'))],
      async (area) => {
        expect(await activeBidIds(area)).toEqual({ [base.auction.id]: [base.bid.id, second?.id] });
        expect((await walletAuctions(area))[base.auction.id].bids).toEqual([base.bid.id, second?.id]);
      },
    );
  });

  it('bid canceled: no longer active, listed as canceled', async () => {
    await applyAndRevert(
      ({ ledger, alice, bid }) => [ledger.bidCancel(alice, bid.id)],
      async (area) => {
        expect(await activeBidIds(area)).toEqual({ [base.auction.id]: [] });
        expect((await area.request('GET', '/nft/exchange/bids/canceled')).body.data[0].nftBidCancel).toEqual({ bidId: base.bid.id });
      },
    );
  });

  it('auction canceled: no longer active, its bid ended with it', async () => {
    await applyAndRevert(
      ({ ledger, seller, auction }) => [ledger.auctionCancel(seller, auction.id)],
      async (area) => {
        expect((await area.request('GET', '/nft/exchange/auctions')).body.data).toEqual([]);
        expect(await walletAuctions(area)).toEqual({});
        expect(await activeBidIds(area)).toEqual({ [base.auction.id]: [] });
        const search = await area.request('POST', '/nft/exchange/auctions/search?includeBids=true&canceledBids=true', {});
        expect(search.body.data[0].nftAuction.bids.map((bid: { id: string }) => bid.id)).toEqual([base.bid.id]);
        const { body } = await area.request('POST', '/nft/exchange/auctions/search?includeBids=true', {});
        expect(body.data[0].nftAuction.bids).toEqual([]);
      },
    );
  });

  it('auction traded: closed, its bids ended, its NFT owned by the bidder', async () => {
    await applyAndRevert(
      ({ ledger, seller, auction, bid }) => [ledger.acceptTrade(seller, auction.id, bid.id)],
      async (area) => {
        expect((await area.request('GET', '/nft/exchange/auctions')).body.data).toEqual([]);
        expect(idsOf((await area.request('GET', '/nft/exchange/trades')).body)).toHaveLength(1);
        const { body } = await area.request('POST', '/nft/exchange/auctions/search?includeBids=true', {});
        expect(body.data[0].nftAuction.bids).toEqual([]);
        const bidder = await area.request('GET', `/nft/exchange/bids/${base.bid.id}/wallets`);
        expect(bidder.body.data.nft.base.tokenIds).toEqual({ [base.nfts[0]]: {} });
        const seller = await area.request('GET', `/nft/exchange/auctions/${base.auction.id}/wallets`);
        expect(seller.body.data.nft).toEqual({ base: expect.objectContaining({ tokenIds: { [base.nfts[1]]: {} } }), exchange: { auctions: {} } });
      },
    );
  });

  it('a canceled bid stays canceled when its auction is canceled later', async () => {
    await applyAndRevert(
      ({ ledger, seller, alice, auction, bid }) => [ledger.bidCancel(alice, bid.id), ledger.auctionCancel(seller, auction.id)],
      async (area) => {
        expect((await area.request('GET', '/nft/exchange/bids/canceled')).body.meta.totalCount).toBe(1);
        expect((await area.request('GET', '/nft/exchange/auctions/canceled')).body.meta.totalCount).toBe(1);
      },
    );
  });
});

describe('expiry and redelivery', () => {
  it('keeps an auction active past its expiration height, reported by the expired flag', async () => {
    const events: LedgerEvent[] = base.ledger.emptyBlocks(3);
    const reverts = events.map(() => base.ledger.revert());
    const area = await startTestArea(nftExchangeArea, base.baseEvents);
    try {
      await area.apply(events);
      expect(idsOf((await area.request('GET', '/nft/exchange/auctions?expired=true')).body)).toEqual([base.auction.id]);
      expect(idsOf((await area.request('GET', '/nft/exchange/auctions')).body)).toEqual([base.auction.id]);
      expect(await activeBidIds(area)).toEqual({ [base.auction.id]: [base.bid.id] });
      await area.apply(reverts);
      expect(await answers(area, base)).toEqual(expected);
    } finally {
      await area.close();
    }
  });

  it('changes nothing when blocks are delivered again', async () => {
    const area = await startTestArea(nftExchangeArea, [...base.baseEvents, ...base.baseEvents.slice(1)]);
    try {
      expect(area.runner.position.height).toBe(4);
      expect(await answers(area, base)).toEqual(expected);
    } finally {
      await area.close();
    }
  });
});
