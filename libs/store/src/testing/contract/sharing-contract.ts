import type { EmbeddedEngine } from '../../embedded-engine';
import type { Doc, Store } from '../../types';

/** A fresh, empty store with an embedded engine, and how to dispose of it. */
export interface EngineFixture {
  store: Store & EmbeddedEngine;
  dispose(): Promise<void>;
}

const RECORDS = 'records';

/**
 * What the embedded engine shares with its writer (EmbeddedEngine), beside the
 * Store contract, which shares nothing: a held write's document is held as it
 * is, and a shared read hands out the held document. Neither side ever changes
 * a shared document, so sharing is safe; the writer's guard (freezeDocument)
 * and the DeepReadonly type see to the writer's side.
 */
export function describeSharingContract(createFixture: () => Promise<EngineFixture>): void {
  let fixture: EngineFixture;
  let store: Store & EmbeddedEngine;

  beforeEach(async () => {
    fixture = await createFixture();
    store = fixture.store;
    await store.ensureCollections([{ name: RECORDS, indexes: [{ key: { owner: 1 } }], opaqueMembers: ['tx'] }]);
  });

  afterEach(async () => {
    await fixture.dispose();
  });

  it('holds the document of a held write as it is, and hands that document out on a shared read', async () => {
    const doc = { _id: 'a', list: [1, { n: 2 }] };
    await store.applyHeldWrites([{ collection: 'things', id: 'a', doc }]);
    expect(await store.findShared('things', 'a')).toBe(doc);
    expect(await store.findShared('things', 'a')).toBe(await store.findShared('things', 'a'));
    expect(await store.findShared('things', 'missing')).toBeNull();
  });

  it('shares nothing through the Store contract: its reads and writes copy, also of held documents', async () => {
    const held = { _id: 'a', list: [1] };
    await store.applyHeldWrites([{ collection: 'things', id: 'a', doc: held }]);
    const read = (await store.collection<{ _id: string; list: number[] }>('things').findById('a'))!;
    expect(read).toEqual(held);
    read.list.push(2);
    expect(await store.findShared('things', 'a')).toEqual({ _id: 'a', list: [1] });

    const written = { _id: 'b', list: [1] };
    await store.applyWrites([{ collection: 'things', id: 'b', doc: written }]);
    const shared = await store.findShared('things', 'b');
    expect(shared).toEqual(written);
    expect(shared).not.toBe(written);
  });

  it('shares every member of a document with opaque members but those, which it gives back as written', async () => {
    const owner = { key: 'k1' };
    const tx = { id: 'ab'.repeat(32), asset: { nftIds: ['cd'.repeat(32)] }, amount: '1' };
    await store.applyHeldWrites([{ collection: RECORDS, id: 'r', doc: { _id: 'r', owner, tx, height: 1 } }]);
    const shared = (await store.findShared<Doc>(RECORDS, 'r'))!;
    expect(JSON.stringify(shared)).toBe(JSON.stringify({ _id: 'r', owner, tx, height: 1 }));
    expect(shared.owner).toBe(owner);

    // A document built from a shared one, as a projection builds it, carries the opaque member along unchanged.
    await store.applyHeldWrites([{ collection: RECORDS, id: 'r', doc: { ...shared, owner: { key: 'k2' } } }]);
    expect(await store.collection(RECORDS).findById('r')).toEqual({ _id: 'r', owner: { key: 'k2' }, tx, height: 1 });
    expect(await store.collection(RECORDS).find({ owner: { key: 'k2' } })).toEqual([{ _id: 'r', owner: { key: 'k2' }, tx, height: 1 }]);
  });

  it('keeps a document as held inside another one, which readers get back as the document itself', async () => {
    const tx = { id: 'ab'.repeat(32), asset: { nftIds: ['cd'.repeat(32)] }, amount: '1' };
    await store.applyHeldWrites([{ collection: RECORDS, id: 'r', doc: { _id: 'r', owner: { key: 'k1' }, tx, height: 1 } }]);
    const held = store.findHeld(RECORDS, 'r');
    expect(store.findHeld(RECORDS, 'missing')).toBeNull();

    await store.applyHeldWrites([{ collection: 'undo', id: 'u', doc: { _id: 'u', before: [{ collection: RECORDS, id: 'r', doc: held }] } }]);
    const before = [{ collection: RECORDS, id: 'r', doc: { _id: 'r', owner: { key: 'k1' }, tx, height: 1 } }];
    expect(await store.collection('undo').findById('u')).toEqual({ _id: 'u', before });
    expect(await store.collection('undo').find({})).toEqual([{ _id: 'u', before }]);
  });
}
