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
  it('keep nothing of a created document, all of a deleted one, and of a changed one the old values of what changed', () => {
    const touched = (before: Doc | null, after: Doc | null) =>
      undoSteps({ before: [{ collection: 'cards', id: 'c1', doc: before }], after: [{ collection: 'cards', id: 'c1', doc: after }] })[0];

    expect(touched(null, card())).toEqual({ collection: 'cards', id: 'c1', doc: null });
    expect(touched(card(), null)).toEqual({ collection: 'cards', id: 'c1', doc: card() });
    const { owner: _owner, ...withoutOwner } = card();
    expect(touched(card(), { ...withoutOwner, stats: { tags: ['fire'], hp: 10 }, burned: true })).toEqual({
      collection: 'cards',
      id: 'c1',
      set: { owner: 'alice' },
      unset: ['burned'],
    });
    expect(touched(card(), card({ stats: { hp: 10, tags: ['ice'] } }))).toEqual({ collection: 'cards', id: 'c1', set: { stats: card().stats } });
    expect(touched(card(), card())).toEqual({ collection: 'cards', id: 'c1' });
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

  it('keep a member named __proto__ as data when putting it back', async () => {
    const before = JSON.parse('{"_id":"c1","__proto__":{"polluted":true}}') as Doc;
    const steps = undoSteps({
      before: [{ collection: 'cards', id: 'c1', doc: before }],
      after: [{ collection: 'cards', id: 'c1', doc: { _id: 'c1' } }],
    });
    const [[{ doc }]] = await restoreWrites(await storeHolding({ _id: 'c1' }), [steps]);
    expect(Object.getPrototypeOf(doc)).toBe(Object.prototype);
    expect(Object.hasOwn(doc!, '__proto__')).toBe(true);
  });
});
