import { HUGE_BID, idsOf, startExchangeArea } from '../testing/exchange-ledger';

type Exchange = Awaited<ReturnType<typeof startExchangeArea>>;

let x: Exchange;
beforeAll(async () => {
  x = await startExchangeArea();
});
afterAll(() => x.area.close());

const get = (path: string) => x.area.request('GET', path);
const search = (body: unknown, query = '') => x.area.request('POST', `/nft/exchange/bids/search${query}`, body);

describe('GET /nft/exchange/bids', () => {
  it('lists bids in every state, in ledger order', async () => {
    const { status, body } = await get('/nft/exchange/bids');
    expect(status).toBe(200);
    expect(idsOf(body)).toEqual([x.canceledBid.id, x.activeBid.id, x.hugeBid.id, x.endedBid.id]);
    expect(body.data[2]).toEqual({
      id: x.hugeBid.id,
      senderPublicKey: x.alice.publicKey,
      nftBid: { auctionId: x.tradedAuction.id, bidAmount: HUGE_BID },
      timestamp: { epoch: 32, unix: 1_490_101_232, human: '2017-03-21T13:00:32.000Z' },
    });
    expect(body.meta.self).toBe('/nft/exchange/bids?transform=true&page=1&limit=100');
  });

  it('orders bid amounts numerically past 2^53', async () => {
    const { body } = await get('/nft/exchange/bids?orderBy=bidAmount:asc');
    expect(idsOf(body)).toEqual([x.endedBid.id, x.canceledBid.id, x.activeBid.id, x.hugeBid.id]);
    expect(idsOf((await get('/nft/exchange/bids?orderBy=bidAmount:desc&limit=1')).body)).toEqual([x.hugeBid.id]);
  });

  it('pages with offset and keeps links page based', async () => {
    const { body } = await get('/nft/exchange/bids?limit=2&offset=1');
    expect(idsOf(body)).toEqual([x.activeBid.id, x.hugeBid.id]);
    expect(body.meta).toMatchObject({ pageCount: 2, next: '/nft/exchange/bids?limit=2&offset=1&transform=true&page=2', previous: null });
  });

  it('returns raw transactions with transform=false', async () => {
    const { body } = await get('/nft/exchange/bids?transform=false&limit=1');
    expect(body.data).toEqual([{ ...x.canceledBid, blockId: expect.any(String), blockHeight: 4, sequence: 0 }]);
  });
});

describe('GET /nft/exchange/bids/{id}', () => {
  it('answers any bid, whatever its state', async () => {
    for (const bid of [x.canceledBid, x.activeBid, x.hugeBid, x.endedBid]) {
      const { status, body } = await get(`/nft/exchange/bids/${bid.id}`);
      expect(status).toBe(200);
      expect(body.data.nftBid).toEqual(bid.asset?.nftBid);
    }
    const raw = await get(`/nft/exchange/bids/${x.activeBid.id.toUpperCase()}?transform=false`);
    expect(raw.body.data).toEqual({ ...x.activeBid, blockId: expect.any(String), blockHeight: 4, sequence: 1 });
  });

  it('answers 404 and 422 bodies', async () => {
    expect((await get(`/nft/exchange/bids/${x.openAuction.id}`)).body).toEqual({ statusCode: 404, error: 'Not Found', message: 'Bid not found' });
    expect((await get('/nft/exchange/bids/xyz')).status).toBe(422);
    expect((await get(`/nft/exchange/bids/${x.activeBid.id}?transform=maybe`)).body.message).toBe('"transform" must be a boolean');
  });
});

describe('GET /nft/exchange/bids/{id}/wallets', () => {
  it("answers the bidder's exchange-form wallet, holding what it won", async () => {
    const { body } = await get(`/nft/exchange/bids/${x.hugeBid.id}/wallets`);
    expect(body.data).toEqual({
      address: x.alice.address,
      publicKey: x.alice.publicKey,
      nft: { base: { collections: {}, tokenIds: { [x.nfts[2]]: {} } }, exchange: { auctions: {} } },
    });
  });

  it('resolves a canceled or ended bid to its bidder, and answers 404 for an unknown bid', async () => {
    expect((await get(`/nft/exchange/bids/${x.canceledBid.id}/wallets`)).body.data.address).toBe(x.alice.address);
    expect((await get(`/nft/exchange/bids/${x.endedBid.id}/wallets`)).body.data.address).toBe(x.bob.address);
    expect((await get(`/nft/exchange/bids/${'e'.repeat(64)}/wallets`)).body).toEqual({
      statusCode: 404,
      error: 'Not Found',
      message: 'Bid not found',
    });
  });
});

describe('POST /nft/exchange/bids/search', () => {
  it.each([
    ['{}', () => ({}), () => [x.canceledBid.id, x.activeBid.id, x.hugeBid.id, x.endedBid.id]],
    ['senderPublicKey', () => ({ senderPublicKey: x.bob.publicKey }), () => [x.activeBid.id, x.endedBid.id]],
    ['auctionId', () => ({ auctionId: x.openAuction.id.toUpperCase() }), () => [x.canceledBid.id, x.activeBid.id]],
    ['bidAmount by value', () => ({ bidAmount: '0200' }), () => [x.activeBid.id]],
    ['bidAmount past 2^53', () => ({ bidAmount: HUGE_BID }), () => [x.hugeBid.id]],
    ['members combined with AND', () => ({ senderPublicKey: x.alice.publicKey, auctionId: x.openAuction.id }), () => [x.canceledBid.id]],
    ['members that exclude each other', () => ({ senderPublicKey: x.bob.publicKey, bidAmount: '150' }), () => []],
  ])('matches by %s', async (_name, body, expected) => {
    const { status, body: page } = await search(body());
    expect(status).toBe(200);
    expect(idsOf(page)).toEqual(expected());
  });

  it('carries transform in its links and honours transform=false', async () => {
    const { body } = await search({ bidAmount: '25' }, '?transform=false');
    expect(body.meta.self).toBe('/nft/exchange/bids/search?transform=false&page=1&limit=100');
    expect(body.data).toEqual([{ ...x.endedBid, blockId: expect.any(String), blockHeight: 4, sequence: 3 }]);
  });

  it.each([
    [{ bidAmount: { $gt: '0' } }, '"bidAmount" must be a string'],
    [{ bidAmount: '-1' }, '"bidAmount" must only contain decimal digits'],
    [{ auctionId: { $regex: '.*' } }, '"auctionId" must be a string'],
    [{ 'nftBid.auctionId': 'a'.repeat(64) }, '"nftBid.auctionId" is not allowed'],
    [{ $or: [] }, '"$or" is not allowed'],
    [{ status: 'active' }, '"status" is not allowed'],
    [null, '"value" must be of type object'],
  ])('rejects the body %j', async (body, message) => {
    const response = await x.area.request('POST', '/nft/exchange/bids/search', JSON.stringify(body));
    expect(response.status).toBe(422);
    expect(response.body).toEqual({ statusCode: 422, error: 'Unprocessable Entity', message });
  });
});
