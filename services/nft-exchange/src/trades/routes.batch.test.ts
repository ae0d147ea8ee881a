import { STORE_COLLECTIONS } from '@ledger-api/nft-read-model';
import { expectBatchAnswersAsById, expectBatchRefusals, startRecordedTestArea, type TestArea } from '@ledger-api/runtime/testing';
import type { RecordingStore } from '@ledger-api/store/testing';
import { nftExchangeArea } from '../service';
import { exchangeLedger, HUGE_BID, type ExchangeLedger } from '../testing/exchange-ledger';

const UNKNOWN = 'f'.repeat(64);
const route = { path: '/nft/exchange/trades/batch', byId: (id: string) => `/nft/exchange/trades/${id}` };

let x: ExchangeLedger;
let area: TestArea;
let store: RecordingStore;

beforeAll(async () => {
  x = exchangeLedger();
  ({ area, store } = await startRecordedTestArea(nftExchangeArea, x.ledger.events));
});
afterAll(() => area.close());

describe('POST /nft/exchange/trades/batch', () => {
  it('answers each id as GET /nft/exchange/trades/{id} does, with its auction and bid, in request order, repeats kept, null for an unknown id', async () => {
    const data = await expectBatchAnswersAsById(area, route, [UNKNOWN, x.trade.id.toUpperCase(), x.tradedAuction.id, x.trade.id]);
    expect(data).toEqual([null, expect.objectContaining({ id: x.trade.id }), null, expect.objectContaining({ id: x.trade.id })]);
    expect(data[1]).toMatchObject({
      completedTrade: { auction: { id: x.tradedAuction.id, nftIds: [x.nfts[2]] }, bid: { id: x.hugeBid.id, bidAmount: HUGE_BID } },
    });
  });

  it('answers the raw trade transactions only with transform=false', async () => {
    const data = await expectBatchAnswersAsById(area, route, [x.trade.id, UNKNOWN], 'transform=false');
    expect(data).toEqual([{ ...x.trade, blockId: expect.any(String), blockHeight: 7, sequence: 0 }, null]);
  });

  it('reads the trades in one query, and their auctions and bids in one each, however many ids are asked for', async () => {
    store.takeReads();
    const ids = Array.from({ length: 100 }, (_, at) => (at % 2 ? x.trade.id : UNKNOWN));
    expect((await area.request('POST', route.path, { ids })).status).toBe(200);
    expect(store.takeReads()).toEqual([
      { collection: STORE_COLLECTIONS.trades, operation: 'find', filter: { _id: { $in: [UNKNOWN, x.trade.id] } } },
      { collection: STORE_COLLECTIONS.auctions, operation: 'find', filter: { _id: { $in: [x.tradedAuction.id] } } },
      { collection: STORE_COLLECTIONS.bids, operation: 'find', filter: { _id: { $in: [x.hugeBid.id] } } },
    ]);
  });

  it('refuses a malformed request with the message of its first problem', async () => {
    await expectBatchRefusals(area, route.path, x.trade.id);
  });
});
