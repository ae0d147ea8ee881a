import { idsOf, startExchangeArea } from '../testing/exchange-ledger';

type Exchange = Awaited<ReturnType<typeof startExchangeArea>>;

let x: Exchange;
beforeAll(async () => {
  x = await startExchangeArea();
});
afterAll(() => x.area.close());

const get = (path: string) => x.area.request('GET', path);

describe('canceled bids', () => {
  it('lists the bid cancellations', async () => {
    const { status, body } = await get('/nft/exchange/bids/canceled');
    expect(status).toBe(200);
    expect(body.data).toEqual([
      {
        id: x.bidCancel.id,
        senderPublicKey: x.alice.publicKey,
        nftBidCancel: { bidId: x.canceledBid.id },
        timestamp: { epoch: 40, unix: 1_490_101_240, human: '2017-03-21T13:00:40.000Z' },
      },
    ]);
    expect(body.meta).toMatchObject({ totalCount: 1, self: '/nft/exchange/bids/canceled?transform=true&page=1&limit=100' });
    expect(idsOf((await get('/nft/exchange/bids/canceled?orderBy=fee:desc')).body)).toEqual([x.bidCancel.id]);
  });

  it('answers one by id, raw with transform=false', async () => {
    expect((await get(`/nft/exchange/bids/canceled/${x.bidCancel.id}`)).body.data.nftBidCancel).toEqual({ bidId: x.canceledBid.id });
    const raw = await get(`/nft/exchange/bids/canceled/${x.bidCancel.id}?transform=false`);
    expect(raw.body.data).toEqual({ ...x.bidCancel, blockId: expect.any(String), blockHeight: 5, sequence: 0 });
  });

  it('answers 404 for a bid that was not canceled and 422 for a malformed id', async () => {
    expect((await get(`/nft/exchange/bids/canceled/${x.activeBid.id}`)).body).toEqual({
      statusCode: 404,
      error: 'Not Found',
      message: 'Canceled bid not found',
    });
    expect((await get('/nft/exchange/bids/canceled/1234')).body.message).toBe('"id" length must be 64 characters long');
  });
});
