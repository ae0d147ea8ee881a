import { findByIds } from './by-ids';
import { EmbeddedStore } from './embedded-store';
import { RecordingStore } from './testing/recording-store';

async function thingsStore() {
  const store = new RecordingStore(new EmbeddedStore());
  await store.ensureCollections([{ name: 'things', indexes: [] }]);
  await store.applyWrites(['a', 'b', 'c'].map((id) => ({ collection: 'things', id, doc: { _id: id, size: id.charCodeAt(0) } })));
  return store;
}

describe('findByIds', () => {
  it('finds the existing documents of the ids in one query, asking for each id once', async () => {
    const store = await thingsStore();
    const found = await findByIds(store.collection('things'), ['c', 'x', 'a', 'c']);
    expect([...found.entries()].sort()).toEqual([
      ['a', { _id: 'a', size: 97 }],
      ['c', { _id: 'c', size: 99 }],
    ]);
    expect(store.takeReads()).toEqual([{ collection: 'things', operation: 'find', filter: { _id: { $in: ['c', 'x', 'a'] } } }]);
  });

  it('reads nothing for no ids', async () => {
    const store = await thingsStore();
    expect((await findByIds(store.collection('things'), [])).size).toBe(0);
    expect(store.takeReads()).toEqual([]);
  });
});
