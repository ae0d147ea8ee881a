import { isWildcardKey, wildcardPath } from '../indexes';
import type { Doc, IndexSpec, Sort } from '../types';
import { fieldKeys, PostingIndex, wildcardKeys } from './posting-index';
import type { CandidateSources } from './query-plan';
import { SortedView } from './sorted-view';
import type { StoredEntry } from './sorting';
import type { Flips, OrderedEntries } from './types';
import { servedOrder } from './view-windows';
import { sortKey } from './entry-order';

/** Sorts no index serves get a view of their own on first use; this many at most, the least recently used dropped. */
const MAX_UNDECLARED_VIEWS = 8;
/** MongoDB keeps an index on `_id` in every collection; so does the embedded store, in every collection with an index. */
const ID_ORDER: Sort = { _id: 1 };

/** The document member a dotted path starts from. */
function topMember(path: string): string {
  return path.split('.')[0];
}

/** Field paths with positional segments (`tags.0`) match differently; no index answers them. */
function isIndexablePath(field: string): boolean {
  return field.split('.').every((segment) => segment !== '' && !/^\d+$/.test(segment));
}

/**
 * Every index of one collection, kept up to date write by write: a sorted
 * view per declared index key (one view serves a key and the keys that only
 * turn its directions around, see servedOrder) and per other sort in use, a
 * posting index per wildcard key, and one per indexed field that turns out
 * to hold arrays, whose members equality conditions must find.
 */
export class CollectionIndexes implements Pick<CandidateSources, 'viewLedBy' | 'postingsOf'> {
  private readonly views: SortedView[] = [];
  /** Least recently used first. */
  private readonly undeclaredViews: SortedView[] = [];
  private readonly wildcards = new Map<string, PostingIndex>();
  private readonly fieldPostings = new Map<string, PostingIndex>();
  /** Every posting index, wildcard and field alike. */
  private readonly postingIndexes: PostingIndex[] = [];

  constructor(private readonly allEntries: () => Iterable<StoredEntry>) {}

  /**
   * The first declared index brings the `_id` order with it. A collection
   * that declares none is read by id (a bookkeeping record, a lookup an area
   * keeps for another's documents): it gets that order on its first sort by
   * `_id`, if ever, rather than keeping it on every write.
   */
  addIndex(key: IndexSpec['key']): void {
    if (this.views.length === 0 && this.wildcards.size === 0 && key !== ID_ORDER) this.addIndex(ID_ORDER);
    const fields = Object.keys(key);
    if (fields.length === 1 && isWildcardKey(fields[0])) {
      const prefix = wildcardPath(fields[0]);
      if (!this.wildcards.has(prefix)) this.wildcards.set(prefix, this.filledPostings(new PostingIndex(wildcardKeys(prefix), topMember(prefix))));
      return;
    }
    if (fields.length === 0 || !fields.every(isIndexablePath) || this.views.some((view) => servedOrder(view.order.sort, key))) return;
    const undeclared = this.undeclaredViews.findIndex((view) => servedOrder(view.order.sort, key));
    const view = undeclared >= 0 ? this.undeclaredViews.splice(undeclared, 1)[0] : new SortedView(key, this.allEntries);
    this.views.push(view);
    this.watchLeadingField(view);
  }

  /** See SortedView.deferOrder; views made while the order is deferred are kept in order from the start. */
  deferOrder(): void {
    for (const view of this.allViews()) view.deferOrder();
  }

  /** Views on fewer fields first, so each view finds the one ordered by its other fields in order already. */
  restoreOrder(): void {
    const views = [...this.allViews()].sort((a, b) => a.order.fields.length - b.order.fields.length);
    for (const view of views) {
      const rest = restOrderOf(view.order.sort);
      view.restoreOrder(views.find((base) => base !== view && base.inOrderNow && restOrderOf(base.order.sort, view.order.fields[0]) === rest));
    }
  }

  inserted(entry: StoredEntry): void {
    for (const view of this.allViews()) view.insert(entry);
    for (const postings of this.postingIndexes) postings.add(entry);
    this.watchLeadingFields();
  }

  removed(entry: StoredEntry): void {
    for (const view of this.allViews()) view.remove(entry);
    for (const postings of this.postingIndexes) postings.remove(entry);
  }

  /**
   * Gives the entry its new document, moving it in every index whose keys it
   * changes. A new document is mostly the old one with a member or two
   * changed, the others the very same values: only indexes reading a member
   * that is not the same value need a closer look.
   */
  replaced(entry: StoredEntry, doc: Doc): void {
    const before = entry.doc;
    // Nearly every replacement moves in no index at all: no lists unless one does.
    let views: SortedView[] | undefined;
    let postings: PostingIndex[] | undefined;
    for (const view of this.allViews()) if (viewKeysDiffer(view, before, doc)) (views ??= []).push(view);
    for (const index of this.postingIndexes)
      if (memberDiffers(before, doc, index.member) && index.keysDiffer(before, doc)) (postings ??= []).push(index);
    for (const view of views ?? []) view.remove(entry);
    for (const index of postings ?? []) index.remove(entry);
    entry.doc = doc;
    for (const view of views ?? []) view.insert(entry);
    for (const index of postings ?? []) index.add(entry);
    if (views) this.watchLeadingFields();
  }

  /** Every entry in the sort's order, from the view serving it; undefined while that view has no order. */
  inOrder(sort: Sort): OrderedEntries | undefined {
    const served = this.serving(sort);
    return served.view.ordered ? served.view.window(0, served.view.length, served.flips) : undefined;
  }

  /**
   * The range [from, to) of `view` in the sort's order, when the view holds
   * it so: every entry of the range ties on the view's leading field, so the
   * sort may leave that field out or put it anywhere. Undefined when the
   * view's order is not the sort's.
   */
  rangeInOrder(view: SortedView, from: number, to: number, sort: Sort): OrderedEntries | undefined {
    const [[leading], ...rest] = Object.entries(view.order.sort);
    if (rest.length === 0) return Object.keys(sort).every((field) => field === leading) ? view.window(from, to, unflipped) : undefined;
    const wanted = Object.fromEntries(Object.entries(sort).filter(([field]) => field !== leading));
    const flips = servedOrder(Object.fromEntries(rest), wanted);
    // Within the range the view reads its other fields one way or the other, all of them alike.
    if (!flips || flips.flipLeading !== flips.flipRest) return undefined;
    return view.window(from, to, { flipLeading: false, flipRest: flips.flipRest });
  }

  viewLedBy(field: string): SortedView | undefined {
    return this.views.find((view) => view.order.fields[0] === field && view.ordered);
  }

  postingsOf(field: string): PostingIndex | undefined {
    const own = this.fieldPostings.get(field);
    if (own || !isIndexablePath(field)) return own;
    for (const [prefix, index] of this.wildcards) if (field.startsWith(`${prefix}.`)) return index;
    return undefined;
  }

  /** The view serving the sort, made for it (dropping the least recently used such view) when no index serves it. */
  private serving(sort: Sort): { view: SortedView; flips: Flips } {
    for (const view of this.views) {
      const flips = servedOrder(view.order.sort, sort);
      if (flips) return { view, flips };
    }
    const index = this.undeclaredViews.findIndex((view) => servedOrder(view.order.sort, sort));
    const view = index >= 0 ? this.undeclaredViews.splice(index, 1)[0] : new SortedView(sort, this.allEntries);
    this.undeclaredViews.push(view);
    if (this.undeclaredViews.length > MAX_UNDECLARED_VIEWS) this.undeclaredViews.shift();
    return { view, flips: servedOrder(view.order.sort, sort)! };
  }

  /** A field that holds arrays is looked up through postings: its view orders whole arrays, not their members. */
  private watchLeadingFields(): void {
    for (const view of this.views) this.watchLeadingField(view);
  }

  private watchLeadingField(view: SortedView): void {
    const field = view.order.fields[0];
    if (!view.leadingHoldsArrays || this.fieldPostings.has(field)) return;
    this.fieldPostings.set(field, this.filledPostings(new PostingIndex(fieldKeys(field), topMember(field))));
  }

  private filledPostings(index: PostingIndex): PostingIndex {
    for (const entry of this.allEntries()) index.add(entry);
    this.postingIndexes.push(index);
    return index;
  }

  private allViews(): SortedView[] {
    return this.undeclaredViews.length === 0 ? this.views : [...this.views, ...this.undeclaredViews];
  }
}

const unflipped = { flipLeading: false, flipRest: false };

/**
 * The sort without `leading` (its own leading field unless named), as a key:
 * a view whose sort without this view's leading field is this view's without
 * it orders entries that tie on that field as this view does.
 */
function restOrderOf(sort: Sort, leading = Object.keys(sort)[0]): string {
  return sortKey(Object.fromEntries(Object.entries(sort).filter(([field]) => field !== leading)));
}

/** Whether the view would order the new document elsewhere; only a member that is not the very same value can move it. */
function viewKeysDiffer(view: SortedView, before: Doc, after: Doc): boolean {
  for (const member of view.order.members) if (memberDiffers(before, after, member)) return view.order.compareKeys(before, after) !== 0;
  return false;
}

/** Whether the member is not the very same value (or not there) in both documents. */
function memberDiffers(before: Doc, after: Doc, member: string): boolean {
  return before[member] !== after[member] || Object.hasOwn(before, member) !== Object.hasOwn(after, member);
}
