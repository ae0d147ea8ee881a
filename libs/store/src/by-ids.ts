import type { Doc, ReadCollection } from './types';

/**
 * The documents with the given ids that exist, by id, read in one query
 * (`_id: { $in: [...] }`, which the `_id` index serves); each id is asked for once.
 */
export async function findByIds<T extends Doc>(collection: ReadCollection<T>, ids: Iterable<string>): Promise<Map<string, T>> {
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) return new Map();
  const found = await collection.find({ _id: { $in: wanted } });
  return new Map(found.map((doc) => [doc._id, doc]));
}
