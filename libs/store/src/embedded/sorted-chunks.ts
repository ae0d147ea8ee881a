import type { StoredEntry } from './sorting';

/** Entries in order, beside the value of their leading sort field as it was read when they came in. */
export interface Chunk {
  entries: StoredEntry[];
  leading: unknown[];
}

/** Two chunks of half the entries each, in order. */
export function splitChunk({ entries, leading }: Chunk): Chunk[] {
  const half = entries.length >> 1;
  return [
    { entries: entries.slice(0, half), leading: leading.slice(0, half) },
    { entries: entries.slice(half), leading: leading.slice(half) },
  ];
}

/** The first index in [0, length) for which `before` is false, for a predicate true on a prefix. */
export function positionIn(length: number, before: (index: number) => boolean): number {
  let low = 0;
  let high = length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (before(middle)) low = middle + 1;
    else high = middle;
  }
  return low;
}
