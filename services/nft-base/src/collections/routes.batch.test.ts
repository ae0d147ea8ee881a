import { STORE_COLLECTIONS } from '@ledger-api/nft-read-model';
import { expectBatchAnswersAsById, expectBatchRefusals, startRecordedTestArea, type TestArea } from '@ledger-api/runtime/testing';
import type { RecordingStore } from '@ledger-api/store/testing';
import { nftBaseArea } from '../service';
import { galleryLedger, type Gallery } from '../testing/gallery';

const UNKNOWN = 'f'.repeat(64);
const route = { path: '/nft/collections/batch', byId: (id: string) => `/nft/collections/${id}` };

let gallery: Gallery;
let area: TestArea;
let store: RecordingStore;

beforeAll(async () => {
  gallery = galleryLedger();
  ({ area, store } = await startRecordedTestArea(nftBaseArea, gallery.ledger.events));
});
afterAll(() => area.close());

describe('POST /nft/collections/batch', () => {
  it('answers each id as GET /nft/collections/{id} does, in request order, repeats kept, null for an unknown id', async () => {
    const { cards, stamps, dragon } = gallery;
    const data = await expectBatchAnswersAsById(area, route, [stamps.id, dragon.id, cards.id.toUpperCase(), UNKNOWN, stamps.id]);
    expect(data.map((entry) => (entry as { name: string } | null)?.name ?? null)).toEqual(['Stamps (1840)', null, 'Cards', null, 'Stamps (1840)']);
  });

  it('answers the raw transactions with transform=false', async () => {
    const data = await expectBatchAnswersAsById(area, route, [UNKNOWN, gallery.cards.id], 'transform=false');
    expect(data).toEqual([null, { ...gallery.cards, blockId: expect.any(String), blockHeight: 1, sequence: 0 }]);
  });

  it('reads the collections in one query, however many ids are asked for', async () => {
    const { cards, stamps } = gallery;
    store.takeReads();
    const ids = Array.from({ length: 100 }, (_, at) => [cards.id, stamps.id.toUpperCase(), UNKNOWN][at % 3]);
    expect((await area.request('POST', route.path, { ids })).status).toBe(200);
    expect(store.takeReads()).toEqual([
      { collection: STORE_COLLECTIONS.collections, operation: 'find', filter: { _id: { $in: [cards.id, stamps.id, UNKNOWN] } } },
    ]);
  });

  it('refuses a malformed request with the message of its first problem', async () => {
    await expectBatchRefusals(area, route.path, gallery.cards.id);
  });
});
