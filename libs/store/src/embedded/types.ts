import type { Doc } from '../types';
import type { EntryOrder } from './entry-order';
import type { StoredEntry } from './sorting';

/** Entries in an order, read by position: a plain array is one. */
export interface OrderedEntries {
  readonly length: number;
  at(position: number): StoredEntry | undefined;
  slice(start?: number, end?: number): StoredEntry[];
}

/** How a sort reads a view: its groups of entries equal on the leading field backwards, and each group backwards. */
export interface Flips {
  flipLeading: boolean;
  flipRest: boolean;
}

/** A sorted view as its windows read it: entries by position, and where a condition on its order turns. */
export interface ViewPositions {
  readonly order: EntryOrder;
  at(position: number): StoredEntry | undefined;
  slice(start: number, end: number): StoredEntry[];
  /** The first position whose document is not `before`; `before` holds for a prefix of the view. */
  partitionPoint(before: (doc: Doc) => boolean): number;
  /** The first position whose leading sort value is not `before`; `before` holds for a prefix of the view. */
  partitionPointOfLeading(before: (value: unknown) => boolean): number;
}
