import { startExchangeArea } from '../testing/exchange-ledger';

type Exchange = Awaited<ReturnType<typeof startExchangeArea>>;

let x: Exchange;
beforeAll(async () => {
  x = await startExchangeArea();
});
afterAll(() => x.area.close());

const get = (path: string) => x.area.request('GET', path);

describe('canceled auctions', () => {
  it('lists the auction cancellations', async () => {
    const { status, body } = await get('/nft/exchange/auctions/canceled?limit=10');
    expect(status).toBe(200);
    expect(body.data).toEqual([
      {
        id: x.auctionCancel.id,
        senderPublicKey: x.seller.publicKey,
        nftAuctionCancel: { auctionId: x.canceledAuction.id },
        timestamp: { epoch: 48, unix: 1_490_101_248, human: '2017-03-21T13:00:48.000Z' },
      },
    ]);
    expect(body.meta).toMatchObject({ totalCount: 1, last: '/nft/exchange/auctions/canceled?limit=10&transform=true&page=1' });
  });

  it('answers one by id, raw with transform=false', async () => {
    expect((await get(`/nft/exchange/auctions/canceled/${x.auctionCancel.id.toUpperCase()}`)).body.data.id).toBe(x.auctionCancel.id);
    const raw = await get(`/nft/exchange/auctions/canceled/${x.auctionCancel.id}?transform=false`);
    expect(raw.body.data).toEqual({ ...x.auctionCancel, blockId: expect.any(String), blockHeight: 6, sequence: 0 });
  });

  it('answers 404 for an auction id and 422 for unknown query keys', async () => {
    expect((await get(`/nft/exchange/auctions/canceled/${x.canceledAuction.id}`)).body).toEqual({
      statusCode: 404,
      error: 'Not Found',
      message: 'Canceled auction not found',
    });
    expect((await get('/nft/exchange/auctions/canceled?expired=true')).body.message).toBe('"expired" is not allowed');
  });
});
