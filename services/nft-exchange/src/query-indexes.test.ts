import { LEDGER_RECORD_LIST } from '@ledger-api/nft-read-model';
import { EmbeddedStore } from '@ledger-api/store';
import { issueListRoutes, poorlyIndexed, RecordingStore, routeQuerySummary, type ListRoute } from '@ledger-api/store/testing';
import { canceledAuctionsRepository } from './auction-cancels/repository';
import { auctionsList, auctionsSearch } from './auctions/query-config';
import { auctionsRepository } from './auctions/repository';
import { canceledBidsRepository } from './bid-cancels/repository';
import { bidsList } from './bids/query-config';
import { bidsRepository } from './bids/repository';
import { nftExchangeArea } from './service';
import { tradesRepository } from './trades/repository';

const { collections: specs } = nftExchangeArea.projection({ networkVersion: 23 });
/** Few values each: an equality on one alone narrows too little to sort its matches in memory. */
const lowCardinality = { auctions: ['status'], bids: ['status'] };

/** Every member of each search, alone and all together. */
const AUCTION_SEARCHES = [
  {},
  { senderPublicKey: 'k' },
  { nftId: 'n1' },
  { nftIds: ['n1', 'n2'] },
  { startAmount: '10' },
  { 'expiration.blockHeight': 5 },
  { expiration: { blockHeight: 5 } },
  { senderPublicKey: 'k', nftId: 'n1', startAmount: '10', 'expiration.blockHeight': 5 },
];
const BID_SEARCHES = [
  {},
  { senderPublicKey: 'k' },
  { auctionId: 'u1' },
  { bidAmount: '10' },
  { senderPublicKey: 'k', auctionId: 'u1', bidAmount: '10' },
];
const TRADE_SEARCHES = [{}, { senderPublicKey: 'k' }, { auctionId: 'u1' }, { bidId: 'b1' }, { senderPublicKey: 'k', auctionId: 'u1', bidId: 'b1' }];

async function issuedReads() {
  const store = new RecordingStore(new EmbeddedStore());
  await store.ensureCollections(specs);
  // The documents lookups and bid attachments need to go on to their next read.
  const auction = { _id: 'u1', status: 'active', sellerAddress: 'seller', nftIds: ['n1'], bidIds: ['b1'], blockHeight: 1, sequence: 0 };
  await store.applyWrites([
    { collection: 'auctions', id: 'u1', doc: auction },
    { collection: 'bids', id: 'b1', doc: { _id: 'b1', auctionId: 'u1', bidderAddress: 'bidder', status: 'active' } },
    { collection: 'trades', id: 't1', doc: { _id: 't1', auctionId: 'u1', bidId: 'b1' } },
  ]);
  const auctions = auctionsRepository(store);
  const height = 10;
  const bids = bidsRepository(store);
  const trades = tradesRepository(store);
  const auctionCancels = canceledAuctionsRepository(store);
  const bidCancels = canceledBidsRepository(store);
  const lookups = async () => {
    await Promise.all([auctions.findById('u1'), auctions.sellerWallet('u1'), bids.findById('b1'), bids.bidderWallet('b1')]);
    await Promise.all([trades.findById('t1'), auctionCancels.findById('x'), bidCancels.findById('x')]);
  };
  const batchLookups = async () => {
    await Promise.all([auctions.findByIds(['u1', 'x']), bids.findByIds(['b1', 'x']), trades.findByIds(['t1', 'x'])]);
  };
  const routes: ListRoute[] = [
    { route: 'GET /nft/exchange/auctions', ...auctionsList, read: (query) => auctions.list(query, height) },
    {
      route: 'POST /nft/exchange/auctions/search',
      ...auctionsSearch,
      bodies: AUCTION_SEARCHES,
      read: (query, body) => auctions.search(body as never, query as never, height),
    },
    { route: 'GET /nft/exchange/auctions/canceled', ...LEDGER_RECORD_LIST, read: (query) => auctionCancels.list(query) },
    { route: 'GET /nft/exchange/bids', ...bidsList, read: (query) => bids.list(query) },
    { route: 'POST /nft/exchange/bids/search', ...bidsList, bodies: BID_SEARCHES, read: (query, body) => bids.search(body as never, query) },
    { route: 'GET /nft/exchange/bids/canceled', ...LEDGER_RECORD_LIST, read: (query) => bidCancels.list(query) },
    { route: 'GET /nft/exchange/trades', ...LEDGER_RECORD_LIST, read: (query) => trades.list(query) },
    {
      route: 'POST /nft/exchange/trades/search',
      ...LEDGER_RECORD_LIST,
      bodies: TRADE_SEARCHES,
      read: (query, body) => trades.search(body as never, query),
    },
    { route: 'lookups by id and wallet', filters: {}, orderable: {}, read: lookups },
    { route: 'batch lookups', filters: {}, orderable: {}, read: batchLookups },
  ];
  return issueListRoutes(store, routes);
}

describe('the NFT exchange queries', () => {
  it('have an index for every read every route issues', async () => {
    expect(poorlyIndexed(await issuedReads(), specs, { lowCardinality })).toEqual([]);
  });

  it('build these filters and sorts', async () => {
    expect(routeQuerySummary(await issuedReads())).toMatchSnapshot();
  });
});
