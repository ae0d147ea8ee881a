import { NftLedgerBuilder, type TestWallet } from '@ledger-api/nft-read-model/testing';
import type { Transaction } from '@ledger-api/ledger';
import { startTestArea } from '@ledger-api/runtime/testing';
import { nftExchangeArea } from '../service';

/** Past 2^53, where numbers lose precision: amounts must still compare and sort exactly. */
export const HUGE_START = '9007199254740993';
export const HUGE_BID = '9007199254740995';

export interface ExchangeLedger {
  ledger: NftLedgerBuilder;
  seller: TestWallet;
  alice: TestWallet;
  bob: TestWallet;
  nfts: string[];
  collectionId: string;
  /** Active, expires at height 20. */
  openAuction: Transaction;
  /** Traded at height 7 with hugeBid. */
  tradedAuction: Transaction;
  /** Canceled at height 6. */
  canceledAuction: Transaction;
  /** Active, expired at height 5. */
  expiredAuction: Transaction;
  /** On openAuction; canceled at height 5. */
  canceledBid: Transaction;
  /** On openAuction; active. */
  activeBid: Transaction;
  /** On tradedAuction; accepted. */
  hugeBid: Transaction;
  /** On canceledAuction; ended by its cancel. */
  endedBid: Transaction;
  bidCancel: Transaction;
  auctionCancel: Transaction;
  trade: Transaction;
}

/**
 * An exchange with an auction in every state and a bid in every state, at
 * height 7. The seller registers a collection and mints six NFTs to itself.
 */
export function exchangeLedger(): ExchangeLedger {
  const ledger = new NftLedgerBuilder();
  const [seller, alice, bob] = ['seller', 'alice', 'bob'].map((name) => ledger.wallet(name));
  const jsonSchema = { properties: { power: { type: 'number' } } };
  const collection = ledger.collection(seller, { name: 'Cards', description: 'Trading cards', maximumSupply: 100, jsonSchema });
  ledger.block(collection);
  const tokens = [1, 2, 3, 4, 5, 6].map((power) => ledger.token(seller, collection.id, { power }));
  ledger.block(...tokens);
  const nfts = tokens.map((token) => token.id);
  const openAuction = ledger.auction(seller, { nftIds: [nfts[0], nfts[1]], startAmount: '100', expiration: { blockHeight: 20 } });
  const tradedAuction = ledger.auction(seller, { nftIds: [nfts[2]], startAmount: HUGE_START, expiration: { blockHeight: 30 } });
  const canceledAuction = ledger.auction(seller, { nftIds: [nfts[3]], startAmount: '20', expiration: { blockHeight: 40 } });
  const expiredAuction = ledger.auction(seller, { nftIds: [nfts[4], nfts[5]], startAmount: '0100', expiration: { blockHeight: 5 } });
  ledger.block(openAuction, tradedAuction, canceledAuction, expiredAuction);
  const canceledBid = ledger.bid(alice, openAuction.id, '150');
  const activeBid = ledger.bid(bob, openAuction.id, '200');
  const hugeBid = ledger.bid(alice, tradedAuction.id, HUGE_BID);
  const endedBid = ledger.bid(bob, canceledAuction.id, '25');
  ledger.block(canceledBid, activeBid, hugeBid, endedBid);
  const bidCancel = ledger.bidCancel(alice, canceledBid.id);
  ledger.block(bidCancel);
  const auctionCancel = ledger.auctionCancel(seller, canceledAuction.id);
  ledger.block(auctionCancel);
  const trade = ledger.acceptTrade(seller, tradedAuction.id, hugeBid.id);
  ledger.block(trade);
  const wallets = { seller, alice, bob };
  const auctions = { openAuction, tradedAuction, canceledAuction, expiredAuction };
  const bids = { canceledBid, activeBid, hugeBid, endedBid };
  return { ledger, ...wallets, nfts, collectionId: collection.id, ...auctions, ...bids, bidCancel, auctionCancel, trade };
}

/** The exchange area serving exchangeLedger(), for route tests. */
export async function startExchangeArea() {
  const exchange = exchangeLedger();
  const area = await startTestArea(nftExchangeArea, exchange.ledger.events);
  return { ...exchange, area };
}

/** The ids of a response's items, for order assertions. */
export const idsOf = (body: { data: Array<{ id: string }> }) => body.data.map((item) => item.id);
