import { STORE_COLLECTIONS } from '@ledger-api/nft-read-model';
import { expectBatchAnswersAsById, expectBatchRefusals, startRecordedTestArea, type TestArea } from '@ledger-api/runtime/testing';
import type { RecordingStore } from '@ledger-api/store/testing';
import { nftExchangeArea } from '../service';
import { exchangeLedger, HUGE_BID, type ExchangeLedger } from '../testing/exchange-ledger';

const UNKNOWN = 'f'.repeat(64);
const route = { path: '/nft/exchange/bids/batch', byId: (id: string) => `/nft/exchange/bids/${id}` };

let x: ExchangeLedger;
let area: TestArea;
let store: RecordingStore;

beforeAll(async () => {
  x = exchangeLedger();
  ({ area, store } = await startRecordedTestArea(nftExchangeArea, x.ledger.events));
});
afterAll(() => area.close());

describe('POST /nft/exchange/bids/batch', () => {
  it('answers each id as GET /nft/exchange/bids/{id} does, whatever the state, in request order, repeats kept, null for an unknown id', async () => {
    const { canceledBid, activeBid, hugeBid, endedBid, openAuction } = x;
    const ids = [hugeBid.id.toUpperCase(), endedBid.id, openAuction.id, canceledBid.id, activeBid.id, hugeBid.id];
    const data = await expectBatchAnswersAsById(area, route, ids);
    expect(data.map((entry) => (entry as { id: string } | null)?.id ?? null)).toEqual([
      hugeBid.id,
      endedBid.id,
      null,
      canceledBid.id,
      activeBid.id,
      hugeBid.id,
    ]);
    expect(data[0]).toMatchObject({ nftBid: { auctionId: x.tradedAuction.id, bidAmount: HUGE_BID } });
  });

  it('answers the raw transactions with transform=false', async () => {
    const data = await expectBatchAnswersAsById(area, route, [x.activeBid.id, UNKNOWN], 'transform=false');
    expect(data).toEqual([{ ...x.activeBid, blockId: expect.any(String), blockHeight: 4, sequence: 1 }, null]);
  });

  it('reads the bids in one query, however many ids are asked for', async () => {
    store.takeReads();
    const ids = Array.from({ length: 100 }, (_, at) => (at % 2 ? x.endedBid.id : UNKNOWN));
    expect((await area.request('POST', route.path, { ids })).status).toBe(200);
    expect(store.takeReads()).toEqual([
      { collection: STORE_COLLECTIONS.bids, operation: 'find', filter: { _id: { $in: [UNKNOWN, x.endedBid.id] } } },
    ]);
  });

  it('refuses a malformed request with the message of its first problem', async () => {
    await expectBatchRefusals(area, route.path, x.activeBid.id);
  });
});
