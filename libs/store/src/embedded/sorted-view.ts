import type { Doc, Sort } from '../types';
import { EntryOrder, readsThroughArray } from './entry-order';
import { positionsInOrder } from './positions-in-order';
import { positionIn, splitChunk, type Chunk } from './sorted-chunks';
import type { StoredEntry } from './sorting';
import type { Flips, OrderedEntries, ViewPositions } from './types';
import { BackwardWindow, ForwardWindow, GroupsBackwardWindow } from './view-windows';

/** Entries per chunk at most: an insert moves at most this many references. */
const MAX_CHUNK = 256;

/**
 * One sort order of a collection's entries, kept up to date write by write,
 * like a B-tree index: a list of sorted chunks, so an insert or a removal
 * costs a binary search and a short splice, and reading a window costs its
 * length plus a search for where it starts.
 *
 * It serves its own sort, and the sorts that only turn its directions
 * around (see servedOrder): read backwards, by groups of entries equal on the
 * leading field backwards, or with each group backwards. Entries that tie on
 * every sort field come in insertion order whichever way, as a sort gives
 * them. It also answers equality and range conditions on its leading field.
 *
 * mingo orders a value level with any array holding it, which is no order a
 * search can rely on: while an entry reads a sort field through an array the
 * view sets its chunks aside (`ordered` is false), and builds them again on
 * the first read after the last such entry is gone.
 */
export class SortedView implements ViewPositions {
  readonly order: EntryOrder;
  private chunks: Chunk[] | null = null;
  /** Position of each chunk's first entry; rebuilt on the first read after a write. */
  private starts: number[] | null = null;
  private count = 0;
  /** Entries reading any sort field through an array, and those reading the leading one so. */
  private arrayReads = 0;
  private leadingArrayReads = 0;
  /** While set, writes set the chunks aside, to be sorted once on restoreOrder or on the first read before it. */
  private deferred = false;

  constructor(
    sort: Sort,
    private readonly allEntries: () => Iterable<StoredEntry>,
  ) {
    this.order = new EntryOrder(sort);
    for (const entry of allEntries()) this.countEntry(entry.doc, 1);
    if (this.arrayReads === 0) this.build();
  }

  get length(): number {
    return this.count;
  }

  /** Whether the view can be read by position. */
  get ordered(): boolean {
    if (!this.chunks && this.arrayReads === 0) this.build();
    return this.chunks !== null;
  }

  /**
   * A replay that nobody reads yet inserts most entries once and in no order
   * a search helps with: one sort at the end costs far less than a search per
   * write. Reads stay correct meanwhile, each sorting the view first.
   */
  deferOrder(): void {
    this.deferred = true;
    this.chunks = null;
    this.starts = null;
  }

  /**
   * Sorts the view now, so no reader pays for it, and keeps it in order write
   * by write again. `base`, a view in order whose sort is this one's without
   * its leading field (see restOrderOf), spares the sort every tie-break.
   */
  restoreOrder(base?: SortedView): void {
    this.deferred = false;
    if (!this.chunks && this.arrayReads === 0) this.build(base);
  }

  /** Whether the view is in order now, without sorting it. */
  get inOrderNow(): boolean {
    return this.chunks !== null;
  }

  /** Whether some entry holds an array in the leading field, whose members only a posting index finds. */
  get leadingHoldsArrays(): boolean {
    return this.leadingArrayReads > 0;
  }

  insert(entry: StoredEntry): void {
    this.starts = null;
    this.countEntry(entry.doc, 1);
    if (this.arrayReads > 0 || this.deferred) this.chunks = null;
    if (!this.chunks) return;
    const chunks = this.chunks;
    const leading = this.order.readers[0](entry.doc);
    const last = chunks[chunks.length - 1];
    // A ledger replay adds entries at the end of the views that follow the ledger, or at the start of their opposites.
    if (!last || this.compareAt(last, last.entries.length - 1, leading, entry) > 0) return this.appendTo(entry, leading);
    if (this.compareAt(chunks[0], 0, leading, entry) < 0) return this.prependTo(entry, leading);
    const chunkIndex = this.chunkHolding(leading, entry);
    const chunk = chunks[chunkIndex];
    const position = this.positionInChunk(chunk, leading, entry);
    chunk.entries.splice(position, 0, entry);
    chunk.leading.splice(position, 0, leading);
    if (chunk.entries.length > MAX_CHUNK) chunks.splice(chunkIndex, 1, ...splitChunk(chunk));
  }

  /** Removes the entry; its document must still be the one it was inserted with. */
  remove(entry: StoredEntry): void {
    this.starts = null;
    this.countEntry(entry.doc, -1);
    if (this.deferred) this.chunks = null;
    if (!this.chunks) return;
    const leading = this.order.readers[0](entry.doc);
    const chunkIndex = this.chunkHolding(leading, entry);
    const chunk = this.chunks[chunkIndex];
    const position = chunk ? this.positionInChunk(chunk, leading, entry) : -1;
    if (chunk?.entries[position] !== entry) throw new Error(`the sorted view ${JSON.stringify(this.order.sort)} lost track of an entry`);
    if (chunk.entries.length === 1) {
      this.chunks.splice(chunkIndex, 1);
    } else {
      chunk.entries.splice(position, 1);
      chunk.leading.splice(position, 1);
    }
  }

  /** The first position whose entry is not `before`, for a predicate true on a prefix of the view. */
  partitionPoint(before: (doc: Doc) => boolean): number {
    return this.firstPositionWhere((chunk, at) => !before(chunk.entries[at].doc));
  }

  /** As partitionPoint, for a predicate on the leading field's value only. */
  partitionPointOfLeading(before: (value: unknown) => boolean): number {
    return this.firstPositionWhere((chunk, at) => !before(chunk.leading[at]));
  }

  at(position: number): StoredEntry | undefined {
    if (position < 0 || position >= this.count) return undefined;
    const chunkIndex = this.chunkAt(position);
    return this.orderedChunks()[chunkIndex].entries[position - this.chunkStart(chunkIndex)];
  }

  /** Entries at positions [start, end) in view order. */
  slice(start: number, end: number): StoredEntry[] {
    const window: StoredEntry[] = [];
    if (start >= end) return window;
    const chunks = this.orderedChunks();
    let chunkIndex = this.chunkAt(start);
    let offset = start - this.chunkStart(chunkIndex);
    while (window.length < end - start && chunkIndex < chunks.length) {
      const { entries } = chunks[chunkIndex++];
      const take = Math.min(entries.length - offset, end - start - window.length);
      for (let i = 0; i < take; i++) window.push(entries[offset + i]);
      offset = 0;
    }
    return window;
  }

  /**
   * The positions [from, to) in the order of a sort this view serves (see
   * servedOrder): its groups of entries equal on the leading field backwards
   * when `flipLeading`, and each group backwards when `flipRest`.
   */
  window(from: number, to: number, { flipLeading, flipRest }: Flips): OrderedEntries {
    if (!flipLeading && !flipRest) return new ForwardWindow(this, from, to);
    if (flipLeading && (flipRest || this.order.fields.length === 1)) return new BackwardWindow(this, from, to, this.order.fields.length);
    if (flipLeading) return new BackwardWindow(this, from, to, 1);
    return new GroupsBackwardWindow(this, from, to);
  }

  /**
   * Where an entry, whose leading value is given, lies against the chunk's
   * entry at `at`: below 0 before it. The chunk's leading values spare most
   * comparisons a read of the documents.
   */
  private compareAt(chunk: Chunk, at: number, leading: unknown, entry: StoredEntry): number {
    const other = chunk.entries[at];
    return this.order.compareLeading(leading, chunk.leading[at]) || this.order.compareKeys(entry.doc, other.doc, 1) || entry.seq - other.seq;
  }

  /** The position in the chunk of the first entry not before the given one. */
  private positionInChunk(chunk: Chunk, leading: unknown, entry: StoredEntry): number {
    let low = 0;
    let high = chunk.entries.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.compareAt(chunk, middle, leading, entry) > 0) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  /** The chunk an entry belongs in: the first whose last entry does not come before it (the last chunk at worst). */
  private chunkHolding(leading: unknown, entry: StoredEntry): number {
    const chunks = this.orderedChunks();
    let low = 0;
    let high = chunks.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.compareAt(chunks[middle], chunks[middle].entries.length - 1, leading, entry) > 0) low = middle + 1;
      else high = middle;
    }
    return Math.min(low, chunks.length - 1);
  }

  private firstPositionWhere(after: (chunk: Chunk, at: number) => boolean): number {
    const chunks = this.orderedChunks();
    const chunkIndex = positionIn(chunks.length, (index) => !after(chunks[index], chunks[index].entries.length - 1));
    if (chunkIndex === chunks.length) return this.count;
    const chunk = chunks[chunkIndex];
    return this.chunkStart(chunkIndex) + positionIn(chunk.entries.length, (at) => !after(chunk, at));
  }

  private appendTo(entry: StoredEntry, leading: unknown): void {
    const chunks = this.orderedChunks();
    const chunk = chunks[chunks.length - 1];
    if (!chunk || chunk.entries.length >= MAX_CHUNK) return void chunks.push({ entries: [entry], leading: [leading] });
    chunk.entries.push(entry);
    chunk.leading.push(leading);
  }

  private prependTo(entry: StoredEntry, leading: unknown): void {
    const chunks = this.orderedChunks();
    if (chunks[0].entries.length >= MAX_CHUNK) return void chunks.unshift({ entries: [entry], leading: [leading] });
    chunks[0].entries.unshift(entry);
    chunks[0].leading.unshift(leading);
  }

  /**
   * Sorts every entry, its leading value read once. Entries come in insertion
   * order, which breaks every tie, or in the order of `base`, which breaks
   * every tie on the leading field as this view's other fields do: then
   * sorting on the leading field alone, stably, gives this view's order,
   * and runs already in order cost a comparison per entry.
   */
  private build(base?: SortedView): void {
    const order = this.order;
    const entries = base ? base.slice(0, base.length) : Array.from(this.allEntries());
    const leading = entries.map((entry) => order.readers[0](entry.doc));
    const positions = positionsInOrder(entries, leading, order, base !== undefined || order.fields.length === 1);
    this.chunks = [];
    for (let start = 0; start < positions.length; start += MAX_CHUNK) {
      const chunk: Chunk = { entries: [], leading: [] };
      for (const position of positions.slice(start, start + MAX_CHUNK)) {
        chunk.entries.push(entries[position]);
        chunk.leading.push(leading[position]);
      }
      this.chunks.push(chunk);
    }
    this.starts = null;
  }

  private orderedChunks(): Chunk[] {
    if (!this.ordered) throw new Error(`the sorted view ${JSON.stringify(this.order.sort)} is read while it has no order`);
    return this.chunks!;
  }

  private countEntry(doc: Doc, change: 1 | -1): void {
    this.count += change;
    const { paths } = this.order;
    if (readsThroughArray(doc, paths[0])) {
      this.leadingArrayReads += change;
      this.arrayReads += change;
      return;
    }
    for (let i = 1; i < paths.length; i++) {
      if (readsThroughArray(doc, paths[i])) {
        this.arrayReads += change;
        return;
      }
    }
  }

  private chunkAt(position: number): number {
    const starts = this.startPositions();
    return positionIn(starts.length, (index) => starts[index] <= position) - 1;
  }

  private startPositions(): number[] {
    if (!this.starts) {
      let position = 0;
      this.starts = this.orderedChunks().map((chunk) => {
        const start = position;
        position += chunk.entries.length;
        return start;
      });
    }
    return this.starts;
  }

  private chunkStart(chunkIndex: number): number {
    return this.startPositions()[chunkIndex] ?? this.count;
  }
}
