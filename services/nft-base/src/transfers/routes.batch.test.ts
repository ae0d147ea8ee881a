import { STORE_COLLECTIONS } from '@ledger-api/nft-read-model';
import { expectBatchAnswersAsById, expectBatchRefusals, startRecordedTestArea, type TestArea } from '@ledger-api/runtime/testing';
import type { RecordingStore } from '@ledger-api/store/testing';
import { nftBaseArea } from '../service';
import { galleryLedger, type Gallery } from '../testing/gallery';

const UNKNOWN = 'f'.repeat(64);
const route = { path: '/nft/transfers/batch', byId: (id: string) => `/nft/transfers/${id}` };

let gallery: Gallery;
let area: TestArea;
let store: RecordingStore;
let transferIds: string[];

beforeAll(async () => {
  gallery = galleryLedger();
  const { ledger, alice, bob, carol, dragon, knight, stamp } = gallery;
  const transfers = [ledger.transfer(alice, [dragon.id], carol.address), ledger.transfer(bob, [knight.id, stamp.id], alice.address)];
  transferIds = transfers.map((transfer) => transfer.id);
  ledger.block(...transfers);
  ({ area, store } = await startRecordedTestArea(nftBaseArea, gallery.ledger.events));
});
afterAll(() => area.close());

describe('POST /nft/transfers/batch', () => {
  it('answers each id as GET /nft/transfers/{id} does, in request order, repeats kept, null for an unknown id', async () => {
    const { dragon, knight, stamp } = gallery;
    const data = await expectBatchAnswersAsById(area, route, [transferIds[1], dragon.id, transferIds[0].toUpperCase(), transferIds[1]]);
    expect(data).toEqual([
      expect.objectContaining({ id: transferIds[1], nftTransfer: { nftIds: [knight.id, stamp.id], recipientId: gallery.alice.address } }),
      null,
      expect.objectContaining({ id: transferIds[0], nftTransfer: { nftIds: [dragon.id], recipientId: gallery.carol.address } }),
      expect.objectContaining({ id: transferIds[1] }),
    ]);
  });

  it('answers the raw transactions with transform=false', async () => {
    const data = await expectBatchAnswersAsById(area, route, [transferIds[1], UNKNOWN], 'transform=false');
    expect(data).toEqual([expect.objectContaining({ id: transferIds[1], typeGroup: 9000, type: 2, blockHeight: 4, sequence: 1 }), null]);
  });

  it('reads the transfers in one query, however many ids are asked for', async () => {
    store.takeReads();
    const ids = Array.from({ length: 100 }, (_, at) => (at % 2 ? transferIds[0] : UNKNOWN));
    expect((await area.request('POST', route.path, { ids })).status).toBe(200);
    expect(store.takeReads()).toEqual([
      { collection: STORE_COLLECTIONS.transfers, operation: 'find', filter: { _id: { $in: [UNKNOWN, transferIds[0]] } } },
    ]);
  });

  it('refuses a malformed request with the message of its first problem', async () => {
    await expectBatchRefusals(area, route.path, transferIds[0]);
  });
});
