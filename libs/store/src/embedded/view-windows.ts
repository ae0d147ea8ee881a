import type { Sort } from '../types';
import type { EntryOrder } from './entry-order';
import type { StoredEntry } from './sorting';
import type { Flips, OrderedEntries, ViewPositions } from './types';

/**
 * How a view sorted by `viewSort` serves `sort`, or undefined when it cannot:
 * the same fields in the same order, with the directions of all fields after
 * the leading one either kept or all turned. That covers a list's orders on a
 * field with the ledger order after it: either way on the field, either way
 * on the ledger order.
 */
export function servedOrder(viewSort: Sort, sort: Sort): Flips | undefined {
  const viewFields = Object.entries(viewSort);
  const fields = Object.entries(sort);
  if (fields.length !== viewFields.length || fields.some(([field], at) => field !== viewFields[at][0])) return undefined;
  const flips = fields.map(([, direction], at) => direction !== viewFields[at][1]);
  const [flipLeading, ...rest] = flips;
  const flipRest = rest.length === 0 ? flipLeading : rest[0];
  return rest.every((flip) => flip === flipRest) ? { flipLeading, flipRest } : undefined;
}

/** Windows longer than this (whole lists rather than pages) are read backwards in one pass. */
const LARGE_WINDOW = 1024;

/** The view's positions [from, to), read by position through `slice`. */
abstract class ViewWindow implements OrderedEntries {
  constructor(
    protected readonly view: ViewPositions,
    protected readonly from: number,
    protected readonly to: number,
  ) {}

  get length(): number {
    return this.to - this.from;
  }

  at(position: number): StoredEntry | undefined {
    return this.slice(position, position + 1)[0];
  }

  abstract slice(start?: number, end?: number): StoredEntry[];
}

export class ForwardWindow extends ViewWindow {
  override at(position: number): StoredEntry | undefined {
    return position >= 0 && position < this.length ? this.view.at(this.from + position) : undefined;
  }

  slice(start = 0, end = this.length): StoredEntry[] {
    return this.view.slice(this.from + Math.max(0, start), this.from + Math.min(end, this.length));
  }
}

/**
 * A view's positions read backwards, by ties on its first `tieFields` fields:
 * the entries of a tie keep the view's order among them. With every field,
 * that is the opposite sort (ties keep insertion order, as a sort gives
 * them); with the leading field alone, the leading field turned around.
 */
export class BackwardWindow extends ViewWindow {
  constructor(
    view: ViewPositions,
    from: number,
    to: number,
    private readonly tieFields: number,
  ) {
    super(view, from, to);
  }

  slice(start = 0, end = this.length): StoredEntry[] {
    const first = Math.max(0, start);
    const last = Math.min(end, this.length);
    if (first >= last) return [];
    return last - first > LARGE_WINDOW ? this.reversedWhole(first, last) : this.tieByTie(first, last);
  }

  /** Each tie the window crosses, only as much of it as the window holds: a page inside a tie of any size costs its length. */
  private tieByTie(first: number, last: number): StoredEntry[] {
    const window: StoredEntry[] = [];
    for (let position = first; position < last;) {
      const viewPosition = this.to - 1 - position;
      const start = this.tieStart(viewPosition);
      const end = this.tieEnd(viewPosition + 1);
      // The tie occupies backward positions [to - end, to - start), in view order.
      const offset = position - (this.to - end);
      const taken = this.view.slice(start + offset, start + offset + Math.min(end - start - offset, last - position));
      window.push(...taken);
      position += taken.length;
    }
    return window;
  }

  /** Backward positions [first, last) are view positions [to - last, to - first): read once, widened to whole ties. */
  private reversedWhole(first: number, last: number): StoredEntry[] {
    const low = this.tieStart(this.to - last);
    const high = this.tieEnd(this.to - first);
    const backward = tiesReversed(this.view.slice(low, high), this.view.order, this.tieFields);
    return backward.slice(first - (this.to - high), last - (this.to - high));
  }

  private ties(a: StoredEntry, b: StoredEntry): boolean {
    return this.view.order.compareKeys(a.doc, b.doc, 0, this.tieFields) === 0;
  }

  /** The start of the tie holding the entry at `position`. */
  private tieStart(position: number): number {
    const entry = this.view.at(position)!;
    const previous = position > this.from ? this.view.at(position - 1) : undefined;
    if (!previous || !this.ties(previous, entry)) return position;
    const start = this.view.partitionPoint((doc) => this.view.order.compareKeys(doc, entry.doc, 0, this.tieFields) < 0);
    return Math.max(this.from, start);
  }

  /** The end of the tie holding the entry before `position`. */
  private tieEnd(position: number): number {
    const entry = this.view.at(position - 1)!;
    const next = position < this.to ? this.view.at(position) : undefined;
    if (!next || !this.ties(next, entry)) return position;
    const end = this.view.partitionPoint((doc) => this.view.order.compareKeys(doc, entry.doc, 0, this.tieFields) <= 0);
    return Math.min(this.to, end);
  }
}

/** A view's groups of entries equal on the leading field in order, each read backwards (ties on every field kept). */
export class GroupsBackwardWindow extends ViewWindow {
  slice(start = 0, end = this.length): StoredEntry[] {
    const window: StoredEntry[] = [];
    let position = this.from + Math.max(0, start);
    const last = this.from + Math.min(end, this.length);
    while (position < last) {
      const leading = this.view.order.readers[0](this.view.at(position)!.doc);
      const groupStart = Math.max(
        this.from,
        this.view.partitionPointOfLeading((value) => this.view.order.compareLeading(value, leading) < 0),
      );
      const groupEnd = Math.min(
        this.to,
        this.view.partitionPointOfLeading((value) => this.view.order.compareLeading(value, leading) <= 0),
      );
      const group = new BackwardWindow(this.view, groupStart, groupEnd, this.view.order.fields.length);
      window.push(...group.slice(position - groupStart, Math.min(last, groupEnd) - groupStart));
      position = Math.min(last, groupEnd);
    }
    return window;
  }
}

/** The entries backwards, each run of entries tying on the first `tieFields` fields kept in its own order. */
function tiesReversed(entries: StoredEntry[], order: EntryOrder, tieFields: number): StoredEntry[] {
  const reversed: StoredEntry[] = [];
  let end = entries.length;
  while (end > 0) {
    let start = end - 1;
    while (start > 0 && order.compareKeys(entries[start - 1].doc, entries[start].doc, 0, tieFields) === 0) start--;
    for (let i = start; i < end; i++) reversed.push(entries[i]);
    end = start;
  }
  return reversed;
}
