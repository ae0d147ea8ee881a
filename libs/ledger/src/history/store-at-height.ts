import { findByIds, overlaidCollection, type Doc, type ReadCollection, type Replaced, type Store } from '@ledger-api/store';
import { UNDO_COLLECTION, undoRecordId, undone, type UndoRecord, type UndoStep } from '../projection/undo';
import { touchedDocument, touchesOfCollection, UNDO_TOUCHES_COLLECTION, type UndoTouch } from '../projection/undo-touches';

/** What reads at a height need of a store: collections to read; a store at a height is one too. */
export type ReadStore = Pick<Store, 'collection'>;

/**
 * The read model as it stood right after block `height` was applied, from
 * the current documents and the undo records of the blocks since: every
 * document a later block touched is taken back through their steps, newest
 * first; the others are read as they are. Nothing is copied per height.
 *
 * The touch index names the blocks after `height` that touched the documents
 * read (given ids, or every one of the collection), and only their undo
 * records are read. A read of given ids costs the same however far back it
 * goes; any other read takes back every document of the collection touched
 * since, so its cost grows with the blocks since `height` (lists keep that
 * window short). One view serves one request: it keeps what it read of the
 * undo records, and each collection's documents taken back.
 */
export function storeAtHeight(store: ReadStore, height: number): ReadStore {
  const undo = new UndoneDocuments(store, height);
  const everyReplaced = new Map<string, Promise<Map<string, Replaced<Doc>>>>();
  return {
    collection<T extends Doc>(name: string): ReadCollection<T> {
      return overlaidCollection(store.collection<T>(name), (ids) => {
        if (ids) return undo.replacedOf<T>(name, ids);
        // A list's count and its page read every replaced document: taken back once for both.
        if (!everyReplaced.has(name)) everyReplaced.set(name, undo.replacedOf(name, undefined));
        return everyReplaced.get(name)! as Promise<Map<string, Replaced<T>>>;
      });
    },
  };
}

/** The documents of one view taken back to its height, through undo records each read once per view. */
class UndoneDocuments {
  private readonly records = new Map<number, Promise<UndoRecord | undefined>>();
  private readonly touches: ReadCollection<UndoTouch>;

  constructor(
    private readonly store: ReadStore,
    private readonly height: number,
  ) {
    this.touches = store.collection<UndoTouch>(UNDO_TOUCHES_COLLECTION);
  }

  /** Each touched document as it is now and as it was at the view's height: of the given ids, or of every touched one. */
  async replacedOf<T extends Doc>(collection: string, ids: string[] | undefined): Promise<Map<string, Replaced<T>>> {
    const steps = await this.stepsOf(collection, ids);
    const docs = await findByIds(this.store.collection<T>(collection), steps.keys());
    const replaced = new Map<string, Replaced<T>>();
    for (const [id, newestStepFirst] of steps) {
      const now = docs.get(id) ?? null;
      const then = newestStepFirst.reduce<Doc | null>(undone, now) as T | null;
      replaced.set(id, { current: now, replacement: then });
    }
    return replaced;
  }

  /** Each touched document's steps, newest block first: of the given ids, or of every touched one. */
  private async stepsOf(collection: string, ids: string[] | undefined): Promise<Map<string, UndoStep[]>> {
    const filter = ids ? { document: { $in: ids.map((id) => touchedDocument(collection, id)) } } : touchesOfCollection(collection);
    const found = await this.touches.find({ ...filter, height: { $gt: this.height } });
    const heights = [...new Set(found.map((touch) => touch.height))].sort((a, b) => b - a);
    const wanted = ids && new Set(ids);
    const steps = new Map<string, UndoStep[]>();
    for (const record of await this.recordsAt(heights)) {
      for (const step of record.before) {
        if (step.collection !== collection || (wanted && !wanted.has(step.id))) continue;
        const known = steps.get(step.id);
        if (known) known.push(step);
        else steps.set(step.id, [step]);
      }
    }
    return steps;
  }

  /** The undo records of these heights that are still kept, each read once per view. */
  private async recordsAt(heights: number[]): Promise<UndoRecord[]> {
    const unread = heights.filter((at) => !this.records.has(at));
    if (unread.length > 0) {
      const found = findByIds(this.store.collection<UndoRecord>(UNDO_COLLECTION), unread.map(undoRecordId));
      const recordAt = async (at: number) => (await found).get(undoRecordId(at));
      for (const at of unread) this.records.set(at, recordAt(at));
    }
    // A record dropped since its touches were read (a revert, or the window moving on) took its block's changes with it.
    return (await Promise.all(heights.map((at) => this.records.get(at)!))).flatMap((record) => record ?? []);
  }
}

/** The id of block `height` as the kept undo records have it; undefined once that block's record is gone. */
export async function blockIdAt(store: ReadStore, height: number): Promise<string | undefined> {
  const record = await store.collection<UndoRecord>(UNDO_COLLECTION).findById(undoRecordId(height));
  return record?.blockId;
}
