import type { Doc } from '@ledger-api/store';
import { MemoryStore } from '../testing/memory-store';
import { restoreWrites, undoSteps } from './undo';

const card = (changes: Partial<Doc> = {}): Doc => ({ _id: 'c1', name: 'Drake', stats: { hp: 10, tags: ['fire'] }, owner: 'alice', ...changes });

async function storeHolding(doc: Doc) {
  const store = new MemoryStore();
  await store.applyWrites([{ collection: 'cards', id: doc._id, doc }]);
  return store;
}

describe('undo steps', () => {
  it('keep nothing of a created document and all of a deleted or changed one: the document the block read', () => {
    const touched = (before: Doc | null, after: Doc | null) =>
      undoSteps({ before: [{ collection: 'cards', id: 'c1', doc: before }], after: [{ collection: 'cards', id: 'c1', doc: after }] })[0];

    expect(touched(null, card())).toEqual({ collection: 'cards', id: 'c1', doc: null });
    expect(touched(card(), null)).toEqual({ collection: 'cards', id: 'c1', doc: card() });
    const read = card();
    expect(touched(read, card({ owner: 'bob', burned: true })).doc).toBe(read);
    expect(touched(read, card()).doc).toBe(read);
  });

  it('take back a record written before whole images from the old values of the members its block changed', async () => {
    const { owner: _owner, ...withoutOwner } = card();
    const steps = [{ collection: 'cards', id: 'c1', set: { owner: 'alice' }, unset: ['burned'] }];

    const writes = await restoreWrites(await storeHolding({ ...withoutOwner, burned: true }), [steps]);

    expect(writes).toEqual([[{ collection: 'cards', id: 'c1', doc: card() }]]);
  });

  it('give the document before the block from the block’s state, and from the earlier one a commit cut short may have left', async () => {
    const before = card();
    const after = card({ owner: 'bob', burned: true });
    const steps = undoSteps({ before: [{ collection: 'cards', id: 'c1', doc: before }], after: [{ collection: 'cards', id: 'c1', doc: after }] });

    for (const stored of [after, before]) {
      expect(await restoreWrites(await storeHolding(stored), [steps])).toEqual([[{ collection: 'cards', id: 'c1', doc: before }]]);
    }
  });

  it('take several blocks back newest first, each from the state the later ones were taken back to', async () => {
    const first = card({ owner: 'bob' });
    const second = card({ owner: 'carol', burned: true });
    const step = (from: Doc, to: Doc) =>
      undoSteps({ before: [{ collection: 'cards', id: 'c1', doc: from }], after: [{ collection: 'cards', id: 'c1', doc: to }] });

    const writes = await restoreWrites(await storeHolding(second), [step(first, second), step(card(), first)]);

    expect(writes.map(([write]) => write.doc)).toEqual([first, card()]);
  });

  it('keep a member named __proto__ as data when putting back the old values of a record written before whole images', async () => {
    const steps = [{ collection: 'cards', id: 'c1', set: JSON.parse('{"__proto__":{"polluted":true}}') as Record<string, unknown> }];
    const [[{ doc }]] = await restoreWrites(await storeHolding({ _id: 'c1' }), [steps]);
    expect(Object.getPrototypeOf(doc)).toBe(Object.prototype);
    expect(Object.hasOwn(doc!, '__proto__')).toBe(true);
  });
});
