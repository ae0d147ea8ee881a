import { findByIds, overlaidCollection, type Doc, type ReadCollection, type Replaced, type Store } from '@ledger-api/store';
import { UNDO_COLLECTION, undoRecordId, undone, type UndoRecord, type UndoStep } from '../projection/undo';
import { touchedDocument, UNDO_TOUCHES_COLLECTION, type UndoTouch } from '../projection/undo-touches';

/** What reads at a height need of a store: collections to read; a store at a height is one too. */
export type ReadStore = Pick<Store, 'collection'>;

/**
 * The read model as it stood right after block `height` was applied, from
 * the current documents and the undo records of the blocks since: every
 * document a later block touched is taken back through their steps, newest
 * first; the others are read as they are. Nothing is copied per height.
 *
 * A read of given ids finds the blocks that touched them through the touch
 * index, however far back the undo records go; any other read takes back
 * every document the collection's later blocks touched, so its cost grows
 * with the number of blocks since `height` (lists keep that window short).
 * One view serves one request: it keeps what it read of the undo records.
 */
export function storeAtHeight(store: ReadStore, height: number): ReadStore {
  let laterRecords: Promise<UndoRecord[]> | undefined;
  const newestFirst = () =>
    (laterRecords ??= store.collection<UndoRecord>(UNDO_COLLECTION).find({ height: { $gt: height } }, { sort: { height: -1 } }));

  /** Each touched document's steps, newest block first: of the given ids, or of every touched one. */
  async function stepsOf(collection: string, ids: string[] | undefined): Promise<Map<string, UndoStep[]>> {
    const records = ids ? await recordsTouching(collection, ids) : await newestFirst();
    const wanted = ids && new Set(ids);
    const steps = new Map<string, UndoStep[]>();
    for (const record of records) {
      for (const step of record.before) {
        if (step.collection !== collection || (wanted && !wanted.has(step.id))) continue;
        const known = steps.get(step.id);
        if (known) known.push(step);
        else steps.set(step.id, [step]);
      }
    }
    return steps;
  }

  async function recordsTouching(collection: string, ids: string[]): Promise<UndoRecord[]> {
    const documents = ids.map((id) => touchedDocument(collection, id));
    const touches = await store.collection<UndoTouch>(UNDO_TOUCHES_COLLECTION).find({ document: { $in: documents }, height: { $gt: height } });
    const heights = [...new Set(touches.map((touch) => touch.height))].sort((a, b) => b - a);
    const records = await findByIds(store.collection<UndoRecord>(UNDO_COLLECTION), heights.map(undoRecordId));
    // A record dropped since its touches were read (a revert, or the window moving on) took its block's changes with it.
    return heights.flatMap((at) => records.get(undoRecordId(at)) ?? []);
  }

  return {
    collection<T extends Doc>(name: string): ReadCollection<T> {
      const current = store.collection<T>(name);
      return overlaidCollection(current, async (ids) => {
        const steps = await stepsOf(name, ids);
        const docs = await findByIds(current, steps.keys());
        const replaced = new Map<string, Replaced<T>>();
        for (const [id, newestStepFirst] of steps) {
          const now = docs.get(id) ?? null;
          const then = newestStepFirst.reduce<Doc | null>(undone, now) as T | null;
          replaced.set(id, { current: now, replacement: then });
        }
        return replaced;
      });
    },
  };
}

/** The id of block `height` as the kept undo records have it; undefined once that block's record is gone. */
export async function blockIdAt(store: ReadStore, height: number): Promise<string | undefined> {
  const record = await store.collection<UndoRecord>(UNDO_COLLECTION).findById(undoRecordId(height));
  return record?.blockId;
}
