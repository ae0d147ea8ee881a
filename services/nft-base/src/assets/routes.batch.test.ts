import { STORE_COLLECTIONS } from '@ledger-api/nft-read-model';
import { expectBatchAnswersAsById, expectBatchRefusals, startRecordedTestArea, type TestArea } from '@ledger-api/runtime/testing';
import type { RecordingStore } from '@ledger-api/store/testing';
import { nftBaseArea } from '../service';
import { galleryLedger, type Gallery } from '../testing/gallery';

const UNKNOWN = 'f'.repeat(64);
const route = { path: '/nft/assets/batch', byId: (id: string) => `/nft/assets/${id}` };

let gallery: Gallery;
let area: TestArea;
let store: RecordingStore;

beforeAll(async () => {
  gallery = galleryLedger();
  gallery.ledger.block(gallery.ledger.burn(gallery.alice, gallery.dragon.id));
  ({ area, store } = await startRecordedTestArea(nftBaseArea, gallery.ledger.events));
});
afterAll(() => area.close());

const idOf = (entry: unknown) => (entry as { id: string } | null)?.id ?? null;

describe('POST /nft/assets/batch', () => {
  it('answers each id as GET /nft/assets/{id} does, in request order, repeats kept, null for an unknown id', async () => {
    const { dragon, knight, ghost, stamp } = gallery;
    const data = await expectBatchAnswersAsById(area, route, [stamp.id, UNKNOWN, knight.id.toUpperCase(), dragon.id, stamp.id, ghost.id]);
    expect(data.map(idOf)).toEqual([stamp.id, null, knight.id, dragon.id, stamp.id, ghost.id]);
    expect(data[0]).not.toHaveProperty('senderPublicKey');
    expect(data[3]).toMatchObject({ ownerPublicKey: 'BURNED' });
    expect(data[5]).not.toHaveProperty('ownerPublicKey');
  });

  it('answers the raw transactions with transform=false', async () => {
    const data = await expectBatchAnswersAsById(area, route, [gallery.knight.id, UNKNOWN], 'transform=false');
    expect(data).toEqual([{ ...gallery.knight, blockId: expect.any(String), blockHeight: 2, sequence: 1 }, null]);
  });

  it("reads the assets in one query and their owners' keys in one more, however many ids are asked for", async () => {
    const { bob, knight, stamp } = gallery;
    store.takeReads();
    await area.request('POST', route.path, { ids: [knight.id.toUpperCase(), UNKNOWN, stamp.id, knight.id] });
    expect(store.takeReads()).toEqual([
      { collection: STORE_COLLECTIONS.assets, operation: 'find', filter: { _id: { $in: [knight.id, UNKNOWN, stamp.id] } } },
      { collection: STORE_COLLECTIONS.wallets, operation: 'find', filter: { _id: { $in: [bob.address] } } },
    ]);
    const hundred = Array.from({ length: 100 }, (_, at) => (at % 2 ? knight.id : at.toString(16).padStart(64, '0')));
    expect((await area.request('POST', route.path, { ids: hundred })).status).toBe(200);
    expect(store.takeReads().map((read) => read.collection)).toEqual([STORE_COLLECTIONS.assets, STORE_COLLECTIONS.wallets]);
  });

  it('keeps no batch in the page cache: the same batch again reads the store again', async () => {
    const body = { ids: [gallery.knight.id, gallery.stamp.id] };
    await area.request('POST', route.path, body);
    store.takeReads();
    await area.request('POST', route.path, body);
    expect(store.takeReads().map((read) => read.collection)).toEqual([STORE_COLLECTIONS.assets, STORE_COLLECTIONS.wallets]);
  });

  it('refuses a malformed request with the message of its first problem', async () => {
    await expectBatchRefusals(area, route.path, gallery.knight.id);
  });
});
