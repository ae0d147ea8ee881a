import type { CollectionSpec, DeepReadonly, Doc, Write } from '@ledger-api/store';
import { undoRecordId, type UndoRecord, type UndoRecordOfBlock, type UndoStep } from './undo';

/**
 * A block's undo steps, one entry per collection it wrote: written in the
 * commit that writes its undo record (which names the collections) and
 * dropped in the one that drops it. A read at a past height reads only the
 * entries it needs, in either store: a list those of its collection since the
 * height (their ids sort by height, so the `_id` index bounds them to the
 * blocks since), a point read those holding its ids (the index on `ids`,
 * multikey in MongoDB, a posting index in the embedded engine). `ids` is left
 * out without history (HISTORY_BLOCKS=0), which then keeps no index of them.
 */
export const UNDO_IMAGES_COLLECTION = '_undo_images';

export const UNDO_IMAGES_SPEC: CollectionSpec = {
  name: UNDO_IMAGES_COLLECTION,
  indexes: [{ key: { ids: 1, height: 1 } }],
};

export interface UndoImages extends Doc {
  height: number;
  collection: string;
  /** The ids of the documents the steps take back, for point reads at a past height; absent without history. */
  ids?: string[];
  /** Each of the collection's, as the block's undo steps hold it. */
  steps: UndoStep[];
}

/** Entry ids sort by height, then collection. */
export function undoImagesId(height: number, collection: string): string {
  return `${undoRecordId(height)}\u0000${collection}`;
}

/** The condition on the ids of entries of blocks after `height`: above every id of that block's. */
export function imagesAfter(height: number): { _id: { $gt: string } } {
  return { _id: { $gt: `${undoRecordId(height)}\u0001` } };
}

/** A block's undo steps split by collection, in the order the block first wrote each collection. */
function undoImagesOf(height: number, steps: readonly UndoStep[], withIds: boolean): UndoImages[] {
  const byCollection = new Map<string, UndoImages>();
  for (const step of steps) {
    const { collection } = step;
    let images = byCollection.get(collection);
    if (!images) {
      images = { _id: undoImagesId(height, collection), height, collection, ...(withIds && { ids: [] }), steps: [] };
      byCollection.set(collection, images);
    }
    images.ids?.push(step.id);
    images.steps.push(step);
  }
  return [...byCollection.values()];
}

/** A block's undo record and its steps split by collection, the record naming the entries' collections; `withIds` for history. */
export function recordWithImages(
  { _id, height, blockId, previous }: UndoRecordOfBlock,
  steps: readonly UndoStep[],
  withIds: boolean,
): { record: UndoRecord; images: UndoImages[] } {
  const images = undoImagesOf(height, steps, withIds);
  return { record: { _id, height, blockId, previous, collections: images.map((entry) => entry.collection) }, images };
}

/** The entry with the index of its ids, as kept with history. */
export function withIds(images: UndoImages): UndoImages {
  return { ...images, ids: images.steps.map((step) => step.id) };
}

/** The steps of the entries, in turn. */
export function stepsOfImages(images: readonly DeepReadonly<UndoImages>[]): UndoStep[] {
  return images.flatMap(({ steps }) => steps as UndoStep[]);
}

/** Writes that store the entries. */
export function undoImagesWrites(images: readonly UndoImages[]): Write[] {
  return images.map((entry) => ({ collection: UNDO_IMAGES_COLLECTION, id: entry._id, doc: entry }));
}

/** Writes that remove the entries of the block at `height` for these collections. */
export function undoImagesDrops(height: number, collections: readonly string[]): Write[] {
  return collections.map((collection) => ({ collection: UNDO_IMAGES_COLLECTION, id: undoImagesId(height, collection), doc: null }));
}
