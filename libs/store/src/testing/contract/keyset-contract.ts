import type { Doc, Filter, Sort, Store } from '../../types';

const RANKED = 'ranked';

/** Ties on every field but the last, strings, numbers, booleans and a nested path. */
const RANKED_DOCS: Doc[] = [
  { _id: 'r1', score: 10, label: 'b', open: true, owner: { tier: 2, key: 'k1' } },
  { _id: 'r2', score: 10, label: 'a', open: false, owner: { tier: 1, key: 'k2' } },
  { _id: 'r3', score: 7, label: 'b', open: true, owner: { tier: 2, key: 'k3' } },
  { _id: 'r4', score: 12, label: 'c', open: false, owner: { tier: 1, key: 'k1' } },
  { _id: 'r5', score: 10, label: 'B', open: true, owner: { tier: 3, key: 'k2' } },
  { _id: 'r6', score: 7, label: 'a', open: false, owner: { tier: 2, key: 'k1' } },
  { _id: 'r7', score: 12, label: 'b', open: true, owner: { tier: 1, key: 'k3' } },
];

/**
 * `after` on find: the documents strictly after a boundary in the sort, the
 * same in every adapter. Run inside describeStoreContract, which supplies a
 * fresh store before each test.
 */
export function describeKeysetContract(currentStore: () => Store): void {
  describe('keyset windows', () => {
    beforeEach(async () => {
      await currentStore().applyWrites(RANKED_DOCS.map((doc) => ({ collection: RANKED, id: doc._id, doc })));
    });

    const idsAfter = async (sort: Sort, after: unknown[], filter: Filter = {}, limit = 0) => {
      const docs = await currentStore().collection(RANKED).find(filter, { sort, after, limit });
      return docs.map((doc) => doc._id);
    };

    it('starts strictly after the boundary in an ascending sort, ties going on to the later fields', async () => {
      expect(await idsAfter({ score: 1, _id: 1 }, [10, 'r2'])).toEqual(['r5', 'r4', 'r7']);
      expect(await idsAfter({ score: 1, _id: 1 }, [7, 'r6'])).toEqual(['r1', 'r2', 'r5', 'r4', 'r7']);
      expect(await idsAfter({ score: 1, _id: 1 }, [12, 'r7'])).toEqual([]);
    });

    it('walks a descending sort and mixed directions downwards where the sort says so', async () => {
      expect(await idsAfter({ score: -1, _id: 1 }, [12, 'r7'])).toEqual(['r1', 'r2', 'r5', 'r3', 'r6']);
      expect(await idsAfter({ score: -1, _id: -1 }, [10, 'r2'])).toEqual(['r1', 'r6', 'r3']);
      expect(await idsAfter({ label: 1, score: -1, _id: 1 }, ['b', 10, 'r1'])).toEqual(['r3', 'r4']);
    });

    it('compares strings by code unit, and booleans false before true', async () => {
      expect(await idsAfter({ label: 1, _id: 1 }, ['B', 'r5'])).toEqual(['r2', 'r6', 'r1', 'r3', 'r7', 'r4']);
      expect(await idsAfter({ open: 1, _id: 1 }, [false, 'r6'])).toEqual(['r1', 'r3', 'r5', 'r7']);
      expect(await idsAfter({ open: -1, _id: 1 }, [true, 'r7'])).toEqual(['r2', 'r4', 'r6']);
    });

    it('reads boundary values at dotted paths', async () => {
      expect(await idsAfter({ 'owner.tier': -1, 'owner.key': 1, _id: 1 }, [2, 'k1', 'r6'])).toEqual(['r3', 'r4', 'r2', 'r7']);
    });

    it('needs no record at the boundary itself', async () => {
      expect(await idsAfter({ score: 1, _id: 1 }, [8, ''])).toEqual(['r1', 'r2', 'r5', 'r4', 'r7']);
      expect(await idsAfter({ _id: -1 }, ['r45'])).toEqual(['r4', 'r3', 'r2', 'r1']);
    });

    it('narrows the filter and limits after the boundary', async () => {
      expect(await idsAfter({ score: 1, _id: 1 }, [7, 'r3'], { open: { $eq: true } }, 2)).toEqual(['r1', 'r5']);
      const first = await currentStore()
        .collection(RANKED)
        .findOne({}, { sort: { score: -1, _id: -1 }, after: [12, 'r4'] });
      expect(first?._id).toBe('r5');
    });
  });
}
