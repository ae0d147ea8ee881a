import { EmbeddedStore, type Store } from '@ledger-api/store';
import { TestLedger } from '../testing/test-ledger';
import { MemoryStore } from '../testing/memory-store';
import { BlockWriteSet } from './write-set';

async function storeWith(docs: Record<string, unknown>[]) {
  const store = new MemoryStore();
  await store.applyWrites(docs.map((doc) => ({ collection: 'things', id: String(doc._id), doc: { _id: String(doc._id), ...doc } })));
  return store;
}

const block = new TestLedger().block([]);

/** A write set reading through the Store contract, as over MongoDB, with the guard on as outside production. */
const writeSetOver = (store: Pick<Store, 'collection'>) =>
  new BlockWriteSet((collection, id) => store.collection(collection).findById(id), block, true);

describe('BlockWriteSet', () => {
  it('lets reads see the block’s own earlier writes while the store stays untouched', async () => {
    const store = await storeWith([{ _id: 'a', n: 1 }]);
    const writeSet = writeSetOver(store);

    writeSet.put('things', { _id: 'a', n: 2 });
    writeSet.put('things', { _id: 'b', n: 1 });
    writeSet.remove('things', 'b');

    expect(await writeSet.get('things', 'a')).toEqual({ _id: 'a', n: 2 });
    expect(await writeSet.get('things', 'b')).toBeNull();
    expect(await store.collection('things').findById('a')).toEqual({ _id: 'a', n: 1 });
    expect(writeSet.block).toBe(block);
  });

  it('captures each written document’s state before the block, in the order the block first wrote each', async () => {
    const store = await storeWith([
      { _id: 'a', n: 1 },
      { _id: 'c', n: 3 },
    ]);
    const writeSet = writeSetOver(store);

    await writeSet.get('things', 'c');
    writeSet.put('things', { _id: 'b', n: 1 });
    writeSet.put('things', { _id: 'a', n: 2 });
    writeSet.put('things', { _id: 'a', n: 3 });
    writeSet.remove('things', 'c');

    expect(await writeSet.changes()).toEqual({
      before: [
        { collection: 'things', id: 'b', doc: null },
        { collection: 'things', id: 'a', doc: { _id: 'a', n: 1 } },
        { collection: 'things', id: 'c', doc: { _id: 'c', n: 3 } },
      ],
      after: [
        { collection: 'things', id: 'b', doc: { _id: 'b', n: 1 } },
        { collection: 'things', id: 'a', doc: { _id: 'a', n: 3 } },
        { collection: 'things', id: 'c', doc: null },
      ],
    });
  });

  it('leaves documents that were only read out of the changes', async () => {
    const writeSet = writeSetOver(await storeWith([{ _id: 'a', n: 1 }]));
    await writeSet.get('things', 'a');
    expect(await writeSet.changes()).toEqual({ before: [], after: [] });
  });

  it('hands out what it read and what was put without copies, and with its guard on refuses changes to either', async () => {
    const store = new EmbeddedStore();
    await store.applyWrites([{ collection: 'things', id: 'a', doc: { _id: 'a', list: [1] } }]);
    const writeSet = new BlockWriteSet((collection, id) => store.findShared(collection, id), block, true);

    const read = await writeSet.get<{ _id: string; list: number[] }>('things', 'a');
    expect(read).toBe(await store.findShared('things', 'a'));
    // The type refuses the change too (DeepReadonly): the cast plants it, as a projection could at run time.
    expect(() => (read!.list as number[]).push(2)).toThrow(TypeError);
    const changed = { ...read!, list: [...read!.list, 2] };
    writeSet.put('things', changed);
    expect(await writeSet.get('things', 'a')).toBe(changed);
    expect(() => changed.list.push(3)).toThrow(TypeError);

    const { before, after } = await writeSet.changes();
    expect(before[0].doc).toEqual({ _id: 'a', list: [1] });
    expect(after[0].doc).toEqual({ _id: 'a', list: [1, 2] });
    expect(await store.collection('things').findById('a')).toEqual({ _id: 'a', list: [1] });
  });

  it('with its guard off, as in production, freezes nothing', async () => {
    const store = await storeWith([{ _id: 'a', list: [1] }]);
    const writeSet = new BlockWriteSet((collection, id) => store.collection(collection).findById(id), block, false);
    const read = await writeSet.get('things', 'a');
    const put = { _id: 'b', list: [1] };
    writeSet.put('things', put);
    expect(Object.isFrozen(read)).toBe(false);
    expect(Object.isFrozen(put) || Object.isFrozen(put.list)).toBe(false);
  });
});
