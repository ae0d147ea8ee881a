import { STORE_COLLECTIONS } from '@ledger-api/nft-read-model';
import { expectBatchAnswersAsById, expectBatchRefusals, startRecordedTestArea, type TestArea } from '@ledger-api/runtime/testing';
import type { RecordingStore } from '@ledger-api/store/testing';
import { nftExchangeArea } from '../service';
import { exchangeLedger, type ExchangeLedger } from '../testing/exchange-ledger';

const UNKNOWN = 'f'.repeat(64);
const route = { path: '/nft/exchange/auctions/batch', byId: (id: string) => `/nft/exchange/auctions/${id}` };

let x: ExchangeLedger;
let area: TestArea;
let store: RecordingStore;

beforeAll(async () => {
  x = exchangeLedger();
  ({ area, store } = await startRecordedTestArea(nftExchangeArea, x.ledger.events));
});
afterAll(() => area.close());

describe('POST /nft/exchange/auctions/batch', () => {
  it('answers each id as GET /nft/exchange/auctions/{id} does, whatever the state, in request order, repeats kept, null for an unknown id', async () => {
    const { openAuction, tradedAuction, canceledAuction, expiredAuction, activeBid } = x;
    const ids = [tradedAuction.id, activeBid.id, canceledAuction.id.toUpperCase(), expiredAuction.id, openAuction.id, tradedAuction.id];
    const data = await expectBatchAnswersAsById(area, route, ids);
    expect(data.map((entry) => (entry as { id: string } | null)?.id ?? null)).toEqual([
      tradedAuction.id,
      null,
      canceledAuction.id,
      expiredAuction.id,
      openAuction.id,
      tradedAuction.id,
    ]);
    expect(data[4]).toMatchObject({ nftAuction: { nftId: x.nfts[0], nftIds: [x.nfts[0], x.nfts[1]], startAmount: '100' } });
  });

  it('answers the raw transactions with transform=false', async () => {
    const data = await expectBatchAnswersAsById(area, route, [UNKNOWN, x.openAuction.id], 'transform=false');
    expect(data).toEqual([null, { ...x.openAuction, blockId: expect.any(String), blockHeight: 3, sequence: 0 }]);
  });

  it('reads the auctions in one query, however many ids are asked for', async () => {
    store.takeReads();
    const ids = Array.from({ length: 100 }, (_, at) => [x.openAuction.id, UNKNOWN, x.canceledAuction.id.toUpperCase()][at % 3]);
    expect((await area.request('POST', route.path, { ids })).status).toBe(200);
    expect(store.takeReads()).toEqual([
      { collection: STORE_COLLECTIONS.auctions, operation: 'find', filter: { _id: { $in: [x.openAuction.id, UNKNOWN, x.canceledAuction.id] } } },
    ]);
  });

  it('refuses a malformed request with the message of its first problem', async () => {
    await expectBatchRefusals(area, route.path, x.openAuction.id);
  });
});
