import { HUGE_BID, HUGE_START, idsOf, startExchangeArea } from '../testing/exchange-ledger';

type Exchange = Awaited<ReturnType<typeof startExchangeArea>>;

let x: Exchange;
beforeAll(async () => {
  x = await startExchangeArea();
});
afterAll(() => x.area.close());

const get = (path: string) => x.area.request('GET', path);
const search = (body: unknown, query = '') => x.area.request('POST', `/nft/exchange/trades/search${query}`, body);
const timestamp = { epoch: 56, unix: 1_490_101_256, human: '2017-03-21T13:00:56.000Z' };

describe('trades', () => {
  it('lists trades in their list form', async () => {
    const { status, body } = await get('/nft/exchange/trades');
    expect(status).toBe(200);
    expect(body.data).toEqual([
      { id: x.trade.id, senderPublicKey: x.seller.publicKey, completedTrade: { auctionId: x.tradedAuction.id, bidId: x.hugeBid.id }, timestamp },
    ]);
    expect(body.meta).toMatchObject({
      totalCountIsEstimate: true,
      count: 1,
      totalCount: 1,
      self: '/nft/exchange/trades?transform=true&page=1&limit=100',
    });
  });

  it('expands the auction and the accepted bid by id', async () => {
    const { body } = await get(`/nft/exchange/trades/${x.trade.id.toUpperCase()}`);
    expect(body.data).toEqual({
      id: x.trade.id,
      senderPublicKey: x.seller.publicKey,
      completedTrade: {
        auction: { id: x.tradedAuction.id, nftId: x.nfts[2], nftIds: [x.nfts[2]], startAmount: HUGE_START, expiration: { blockHeight: 30 } },
        bid: { id: x.hugeBid.id, auctionId: x.tradedAuction.id, bidAmount: HUGE_BID },
      },
      timestamp,
    });
  });

  it('returns the raw trade transaction only with transform=false', async () => {
    expect((await get(`/nft/exchange/trades/${x.trade.id}?transform=false`)).body.data).toEqual({
      ...x.trade,
      blockId: expect.any(String),
      blockHeight: 7,
      sequence: 0,
    });
    expect((await get('/nft/exchange/trades?transform=false')).body.data).toEqual([
      { ...x.trade, blockId: expect.any(String), blockHeight: 7, sequence: 0 },
    ]);
  });

  it('answers 404 for an unknown trade', async () => {
    expect((await get(`/nft/exchange/trades/${x.tradedAuction.id}`)).body).toEqual({
      statusCode: 404,
      error: 'Not Found',
      message: 'Trade not found',
    });
  });

  it.each([
    ['{}', () => ({}), () => [x.trade.id]],
    ['senderPublicKey', () => ({ senderPublicKey: x.seller.publicKey }), () => [x.trade.id]],
    ['the bidder as sender', () => ({ senderPublicKey: x.alice.publicKey }), () => []],
    ['auctionId', () => ({ auctionId: x.tradedAuction.id }), () => [x.trade.id]],
    ['bidId', () => ({ bidId: x.hugeBid.id.toUpperCase() }), () => [x.trade.id]],
    ['bidId and another auction', () => ({ bidId: x.hugeBid.id, auctionId: x.openAuction.id }), () => []],
  ])('searches by %s', async (_name, body, expected) => {
    const { status, body: page } = await search(body());
    expect(status).toBe(200);
    expect(idsOf(page)).toEqual(expected());
  });

  it.each([
    [{ bidId: { $exists: true } }, '"bidId" must be a string'],
    [{ 'completedTrade.bidId': 'a'.repeat(64) }, '"completedTrade.bidId" is not allowed'],
    [{ auctionId: 'z'.repeat(64) }, '"auctionId" must only contain hexadecimal characters'],
    [{ nftId: 'a'.repeat(64) }, '"nftId" is not allowed'],
  ])('rejects the search body %j', async (body, message) => {
    expect((await search(body)).body).toEqual({ statusCode: 422, error: 'Unprocessable Entity', message });
  });
});
