import { HUGE_START, idsOf, startExchangeArea } from '../testing/exchange-ledger';

type Exchange = Awaited<ReturnType<typeof startExchangeArea>>;

let x: Exchange;
beforeAll(async () => {
  x = await startExchangeArea();
});
afterAll(() => x.area.close());

const get = (path: string) => x.area.request('GET', path);
const search = (body: unknown, query = '') => x.area.request('POST', `/nft/exchange/auctions/search${query}`, body);

describe('GET /nft/exchange/auctions', () => {
  it('lists the active auctions, expired or not, in ledger order', async () => {
    const { status, body } = await get('/nft/exchange/auctions');
    expect(status).toBe(200);
    expect(idsOf(body)).toEqual([x.openAuction.id, x.expiredAuction.id]);
    expect(body.data[0]).toEqual({
      id: x.openAuction.id,
      senderPublicKey: x.seller.publicKey,
      nftAuction: { nftIds: [x.nfts[0], x.nfts[1]], startAmount: '100', expiration: { blockHeight: 20 } },
      timestamp: { epoch: 24, unix: 1_490_101_224, human: '2017-03-21T13:00:24.000Z' },
    });
    expect(body.meta).toEqual({
      totalCountIsEstimate: true,
      count: 2,
      pageCount: 1,
      totalCount: 2,
      next: null,
      previous: null,
      self: '/nft/exchange/auctions?transform=true&page=1&limit=100',
      first: '/nft/exchange/auctions?transform=true&page=1&limit=100',
      last: '/nft/exchange/auctions?transform=true&page=1&limit=100',
    });
  });

  it('narrows by expiry against the last applied block with `expired`', async () => {
    expect(idsOf((await get('/nft/exchange/auctions?expired=true')).body)).toEqual([x.expiredAuction.id]);
    expect(idsOf((await get('/nft/exchange/auctions?expired=FALSE')).body)).toEqual([x.openAuction.id]);
    const { body } = await get('/nft/exchange/auctions?expired=false');
    expect(body.meta.self).toBe('/nft/exchange/auctions?expired=false&transform=true&page=1&limit=100');
  });

  it('returns the raw transactions with transform=false', async () => {
    const { body } = await get('/nft/exchange/auctions?transform=false');
    expect(body.data[0]).toEqual({ ...x.openAuction, blockId: expect.any(String), blockHeight: 3, sequence: 0 });
    expect(body.data[0].timestamp).toBeUndefined();
  });

  it('pages with links that keep the sent keys first', async () => {
    const { body } = await get('/nft/exchange/auctions?orderBy=startAmount:desc&limit=1&page=2');
    expect(idsOf(body)).toEqual([x.expiredAuction.id]);
    expect(body.meta).toMatchObject({
      count: 1,
      pageCount: 2,
      totalCount: 2,
      next: null,
      previous: '/nft/exchange/auctions?orderBy=startAmount%3Adesc&limit=1&page=1&transform=true',
      self: '/nft/exchange/auctions?orderBy=startAmount%3Adesc&limit=1&page=2&transform=true',
      last: '/nft/exchange/auctions?orderBy=startAmount%3Adesc&limit=1&page=2&transform=true',
    });
  });

  it.each([
    ['expired=yes', '"expired" must be a boolean'],
    ['orderBy=startAmount', '"orderBy" with value "startAmount" fails to match the orderBy query parameter (<iteratee>:<direction>) pattern'],
    ['orderBy=bidAmount:asc', "Unknown orderBy property 'bidAmount'"],
    ['onlyActive=true', '"onlyActive" is not allowed'],
    ['limit=101', '"limit" must be less than or equal to 100'],
  ])('rejects %s', async (query, message) => {
    const { status, body } = await get(`/nft/exchange/auctions?${query}`);
    expect(status).toBe(422);
    expect(body).toEqual({ statusCode: 422, error: 'Unprocessable Entity', message });
  });
});

describe('GET /nft/exchange/auctions/{id}', () => {
  it('answers the by-id form with the first NFT and all of them, whatever the state', async () => {
    const { status, body } = await get(`/nft/exchange/auctions/${x.tradedAuction.id.toUpperCase()}`);
    expect(status).toBe(200);
    expect(body.data).toEqual({
      id: x.tradedAuction.id,
      senderPublicKey: x.seller.publicKey,
      nftAuction: { nftId: x.nfts[2], nftIds: [x.nfts[2]], startAmount: HUGE_START, expiration: { blockHeight: 30 } },
      timestamp: expect.objectContaining({ epoch: 24 }),
    });
    expect((await get(`/nft/exchange/auctions/${x.canceledAuction.id}`)).status).toBe(200);
  });

  it('returns the raw transaction with transform=false', async () => {
    const { body } = await get(`/nft/exchange/auctions/${x.openAuction.id}?transform=false`);
    expect(body.data).toEqual({ ...x.openAuction, blockId: expect.any(String), blockHeight: 3, sequence: 0 });
  });

  it('answers 404 for an unknown auction and 422 for a malformed id', async () => {
    expect((await get(`/nft/exchange/auctions/${'f'.repeat(64)}`)).body).toEqual({
      statusCode: 404,
      error: 'Not Found',
      message: 'Auction not found',
    });
    expect((await get(`/nft/exchange/auctions/${x.bidCancel.id}`)).body.message).toBe('Auction not found');
    expect((await get('/nft/exchange/auctions/abc')).body).toEqual({
      statusCode: 422,
      error: 'Unprocessable Entity',
      message: '"id" length must be 64 characters long',
    });
    expect((await get(`/nft/exchange/auctions/${'g'.repeat(64)}`)).body.message).toBe('"id" must only contain hexadecimal characters');
  });
});

describe('GET /nft/exchange/auctions/{id}/wallets', () => {
  it("answers the seller's exchange-form wallet", async () => {
    const { status, body } = await get(`/nft/exchange/auctions/${x.openAuction.id}/wallets`);
    expect(status).toBe(200);
    expect(body.data).toEqual({
      address: x.seller.address,
      publicKey: x.seller.publicKey,
      nft: {
        base: {
          collections: {
            [x.collectionId]: {
              currentSupply: 6,
              nftCollectionAsset: {
                name: 'Cards',
                description: 'Trading cards',
                maximumSupply: 100,
                jsonSchema: { properties: { power: { type: 'number' } } },
              },
            },
          },
          tokenIds: Object.fromEntries([0, 1, 3, 4, 5].map((index) => [x.nfts[index], {}])),
        },
        exchange: {
          auctions: {
            [x.openAuction.id]: { nftId: x.nfts[0], nftIds: [x.nfts[0], x.nfts[1]], bids: [x.activeBid.id] },
            [x.expiredAuction.id]: { nftId: x.nfts[4], nftIds: [x.nfts[4], x.nfts[5]], bids: [] },
          },
        },
      },
    });
  });

  it('resolves a closed auction to its seller too, and answers 404 for an unknown one', async () => {
    const traded = await get(`/nft/exchange/auctions/${x.tradedAuction.id}/wallets`);
    expect(traded.body.data.address).toBe(x.seller.address);
    expect((await get(`/nft/exchange/auctions/${'0'.repeat(64)}/wallets`)).body).toEqual({
      statusCode: 404,
      error: 'Not Found',
      message: 'Auction not found',
    });
    expect((await get(`/nft/exchange/auctions/${x.openAuction.id}/wallets?transform=false`)).body.message).toBe('"transform" is not allowed');
  });
});

describe('POST /nft/exchange/auctions/search', () => {
  const all = () => [x.openAuction.id, x.tradedAuction.id, x.canceledAuction.id, x.expiredAuction.id];

  it('matches auctions in every state with {} and flags defaulted links', async () => {
    const { status, body } = await search({});
    expect(status).toBe(200);
    expect(idsOf(body)).toEqual(all());
    expect(body.meta.self).toBe(
      '/nft/exchange/auctions/search?transform=true&onlyActive=false&includeBids=false&canceledBids=false&page=1&limit=100',
    );
    expect(body.data[0].nftAuction).toEqual({ nftIds: [x.nfts[0], x.nfts[1]], startAmount: '100', expiration: { blockHeight: 20 } });
  });

  it('narrows with onlyActive and expired', async () => {
    expect(idsOf((await search({}, '?onlyActive=true')).body)).toEqual([x.openAuction.id, x.expiredAuction.id]);
    expect(idsOf((await search({}, '?expired=false')).body)).toEqual([x.openAuction.id, x.tradedAuction.id, x.canceledAuction.id]);
    expect(idsOf((await search({}, '?expired=true&onlyActive=true')).body)).toEqual([x.expiredAuction.id]);
  });

  it.each([
    [
      'senderPublicKey',
      () => ({ senderPublicKey: x.seller.publicKey.toUpperCase() }),
      () => [x.openAuction.id, x.tradedAuction.id, x.canceledAuction.id, x.expiredAuction.id],
    ],
    ['senderPublicKey of a non-seller', () => ({ senderPublicKey: x.alice.publicKey }), () => []],
    ['nftId', () => ({ nftId: x.nfts[1] }), () => [x.openAuction.id]],
    ['nftIds (all of them)', () => ({ nftIds: [x.nfts[5], x.nfts[4]] }), () => [x.expiredAuction.id]],
    ['nftIds not all in one auction', () => ({ nftIds: [x.nfts[0], x.nfts[4]] }), () => []],
    ['startAmount by value', () => ({ startAmount: '00100' }), () => [x.openAuction.id, x.expiredAuction.id]],
    ['startAmount past 2^53', () => ({ startAmount: HUGE_START }), () => [x.tradedAuction.id]],
    ['a neighbour past 2^53', () => ({ startAmount: '9007199254740992' }), () => []],
    ['expiration.blockHeight as a dotted key', () => ({ 'expiration.blockHeight': 40 }), () => [x.canceledAuction.id]],
    ['expiration.blockHeight nested', () => ({ expiration: { blockHeight: 5 } }), () => [x.expiredAuction.id]],
    ['members combined with AND', () => ({ startAmount: '100', expiration: { blockHeight: 5 } }), () => [x.expiredAuction.id]],
    ['dotted and nested heights that disagree', () => ({ 'expiration.blockHeight': 5, expiration: { blockHeight: 20 } }), () => []],
  ])('matches by %s', async (_name, body, expected) => {
    const response = await search(body());
    expect(response.status).toBe(200);
    expect(idsOf(response.body)).toEqual(expected());
  });

  it('orders amounts numerically past 2^53, ties in ledger order', async () => {
    const ascending = await search({}, '?orderBy=startAmount:asc');
    expect(idsOf(ascending.body)).toEqual([x.canceledAuction.id, x.openAuction.id, x.expiredAuction.id, x.tradedAuction.id]);
    const descending = await search({}, '?orderBy=startAmount:desc');
    expect(idsOf(descending.body)).toEqual([x.tradedAuction.id, x.openAuction.id, x.expiredAuction.id, x.canceledAuction.id]);
    const byExpiry = await search({}, '?orderBy=expiration.blockHeight:desc');
    expect(idsOf(byExpiry.body)).toEqual([x.canceledAuction.id, x.tradedAuction.id, x.openAuction.id, x.expiredAuction.id]);
  });

  it('adds the active bids with includeBids, and every bid with canceledBids too', async () => {
    const active = await search({ nftId: x.nfts[0] }, '?includeBids=true');
    expect(active.body.data[0].nftAuction.bids).toEqual([
      {
        id: x.activeBid.id,
        senderPublicKey: x.bob.publicKey,
        nftBid: { auctionId: x.openAuction.id, bidAmount: '200' },
        timestamp: expect.objectContaining({ epoch: 32 }),
      },
    ]);
    const every = await search({}, '?includeBids=true&canceledBids=true');
    const bidIds = every.body.data.map((auction: { nftAuction: { bids: Array<{ id: string }> } }) => auction.nftAuction.bids.map((bid) => bid.id));
    expect(bidIds).toEqual([[x.canceledBid.id, x.activeBid.id], [x.hugeBid.id], [x.endedBid.id], []]);
    const closed = await search({ nftId: x.nfts[2] }, '?includeBids=true');
    expect(closed.body.data[0].nftAuction.bids).toEqual([]);
    const withoutFlag = await search({ nftId: x.nfts[0] }, '?canceledBids=true');
    expect(withoutFlag.body.data[0].nftAuction.bids).toBeUndefined();
  });

  it('returns raw transactions with transform=false, bids or not', async () => {
    const { body } = await search({ nftId: x.nfts[0] }, '?transform=false&includeBids=true');
    expect(body.data).toEqual([{ ...x.openAuction, blockId: expect.any(String), blockHeight: 3, sequence: 0 }]);
  });

  it.each([
    [{ senderPublicKey: { $ne: null } }, '"senderPublicKey" must be a string'],
    [{ $where: 'true' }, '"$where" is not allowed'],
    [{ 'nftIds.0': 'a'.repeat(64) }, '"nftIds.0" is not allowed'],
    [{ nftIds: { $all: [] } }, '"nftIds" must be an array'],
    [{ nftId: 'a'.repeat(63) }, '"nftId" length must be 64 characters long'],
    [{ nftId: `${'.'.repeat(63)}*` }, '"nftId" must only contain hexadecimal characters'],
    [{ nftIds: ['a'.repeat(64), 'xyz'] }, '"nftIds[1]" must only contain hexadecimal characters'],
    [{ senderPublicKey: 'a'.repeat(64) }, '"senderPublicKey" length must be 66 characters long'],
    [{ startAmount: 100 }, '"startAmount" must be a string'],
    [{ startAmount: '1e3' }, '"startAmount" must only contain decimal digits'],
    [{ startAmount: { $gt: '0' } }, '"startAmount" must be a string'],
    [{ 'expiration.blockHeight': '5' }, '"expiration.blockHeight" must be a number'],
    [{ expiration: { blockHeight: 0 } }, '"expiration.blockHeight" must be greater than or equal to 1'],
    [{ expiration: { blockHeight: 1.5 } }, '"expiration.blockHeight" must be an integer'],
    [{ expiration: { blockHeight: { $gt: 0 } } }, '"expiration.blockHeight" must be a number'],
    [{ expiration: { $gt: 0 } }, '"expiration.$gt" is not allowed'],
    [{ name: 'x' }, '"name" is not allowed'],
    [[], '"value" must be of type object'],
    ['"text"', '"value" must be of type object'],
    ['{"nftId": ', 'Invalid request payload JSON format'],
  ])('rejects the body %j', async (body, message) => {
    const { status, body: error } = await search(body);
    expect(status).toBe(422);
    expect(error).toEqual({ statusCode: 422, error: 'Unprocessable Entity', message });
  });

  it('validates its flags', async () => {
    expect((await search({}, '?includeBids=1')).body.message).toBe('"includeBids" must be a boolean');
    expect((await search({}, '?orderBy=nope:asc')).body.message).toBe("Unknown orderBy property 'nope'");
  });
});
