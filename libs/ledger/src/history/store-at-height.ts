import { findByIds, overlaidCollection, type Doc, type ReadCollection, type Replaced, type Store } from '@ledger-api/store';
import { UNDO_COLLECTION, undoRecordId, undone, type UndoRecord, type UndoStep } from '../projection/undo';
import { imagesAfter, stepsOfImages, UNDO_IMAGES_COLLECTION, type UndoImages } from '../projection/undo-images';

/** What reads at a height need of a store: collections to read; a store at a height is one too. */
export type ReadStore = Pick<Store, 'collection'>;

/**
 * The read model as it stood right after block `height` was applied, from
 * the current documents and the undo records of the blocks since: every
 * document a later block touched is taken back through their steps, newest
 * first; the others are read as they are. Nothing is copied per height.
 *
 * Only the undo steps of the collection read are read: those holding the
 * given ids, or every one kept since `height`. A read of given ids costs the
 * same however far back it goes; any other read takes back every document of
 * the collection touched since, so its cost grows with the blocks since
 * `height` (lists keep that window short). One view serves one request: it
 * keeps each collection's documents taken back.
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

/** The documents of one view taken back to its height, through the undo steps kept per collection. */
class UndoneDocuments {
  private readonly images: ReadCollection<UndoImages>;

  constructor(
    private readonly store: ReadStore,
    private readonly height: number,
  ) {
    this.images = store.collection<UndoImages>(UNDO_IMAGES_COLLECTION);
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

  /**
   * Each touched document's steps, newest block first: of the given ids, or of every touched one.
   * An entry whose record was dropped since (a revert, or the window moving on) went with it.
   */
  private async stepsOf(collection: string, ids: string[] | undefined): Promise<Map<string, UndoStep[]>> {
    const entries = await this.images.find(
      ids ? { ids: { $in: ids }, height: { $gt: this.height }, collection } : { ...imagesAfter(this.height), collection },
    );
    entries.sort((a, b) => b.height - a.height);
    const wanted = ids && new Set(ids);
    const steps = new Map<string, UndoStep[]>();
    for (const step of stepsOfImages(entries)) {
      if (wanted && !wanted.has(step.id)) continue;
      const known = steps.get(step.id);
      if (known) known.push(step);
      else steps.set(step.id, [step]);
    }
    return steps;
  }
}

/** The id of block `height` as the kept undo records have it; undefined once that block's record is gone. */
export async function blockIdAt(store: ReadStore, height: number): Promise<string | undefined> {
  const record = await store.collection<UndoRecord>(UNDO_COLLECTION).findById(undoRecordId(height));
  return record?.blockId;
}
