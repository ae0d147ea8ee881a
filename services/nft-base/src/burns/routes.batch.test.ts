import { STORE_COLLECTIONS } from '@ledger-api/nft-read-model';
import { expectBatchAnswersAsById, expectBatchRefusals, startRecordedTestArea, type TestArea } from '@ledger-api/runtime/testing';
import type { RecordingStore } from '@ledger-api/store/testing';
import { nftBaseArea } from '../service';
import { galleryLedger, type Gallery } from '../testing/gallery';

const UNKNOWN = 'f'.repeat(64);
const route = { path: '/nft/burns/batch', byId: (id: string) => `/nft/burns/${id}` };

let gallery: Gallery;
let area: TestArea;
let store: RecordingStore;
let burnIds: string[];

beforeAll(async () => {
  gallery = galleryLedger();
  const { ledger, alice, bob, dragon, knight } = gallery;
  const burns = [ledger.burn(alice, dragon.id), ledger.burn(bob, knight.id)];
  burnIds = burns.map((burn) => burn.id);
  ledger.block(...burns);
  ({ area, store } = await startRecordedTestArea(nftBaseArea, gallery.ledger.events));
});
afterAll(() => area.close());

describe('POST /nft/burns/batch', () => {
  it('answers each id as GET /nft/burns/{id} does, in request order, repeats kept, null for an unknown id', async () => {
    const { dragon, knight } = gallery;
    const data = await expectBatchAnswersAsById(area, route, [burnIds[1], dragon.id, burnIds[0].toUpperCase(), burnIds[1]]);
    expect(data).toEqual([
      expect.objectContaining({ id: burnIds[1], nftBurn: { nftId: knight.id } }),
      null,
      expect.objectContaining({ id: burnIds[0], nftBurn: { nftId: dragon.id } }),
      expect.objectContaining({ id: burnIds[1] }),
    ]);
  });

  it('answers the raw transactions with transform=false', async () => {
    const data = await expectBatchAnswersAsById(area, route, [burnIds[0], UNKNOWN], 'transform=false');
    expect(data).toEqual([expect.objectContaining({ id: burnIds[0], typeGroup: 9000, type: 3, blockHeight: 4, sequence: 0 }), null]);
  });

  it('reads the burns in one query, however many ids are asked for', async () => {
    store.takeReads();
    const ids = Array.from({ length: 100 }, (_, at) => (at % 2 ? burnIds[0] : UNKNOWN));
    expect((await area.request('POST', route.path, { ids })).status).toBe(200);
    expect(store.takeReads()).toEqual([{ collection: STORE_COLLECTIONS.burns, operation: 'find', filter: { _id: { $in: [UNKNOWN, burnIds[0]] } } }]);
  });

  it('refuses a malformed request with the message of its first problem', async () => {
    await expectBatchRefusals(area, route.path, burnIds[0]);
  });
});
