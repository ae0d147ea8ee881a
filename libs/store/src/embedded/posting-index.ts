import { sameJsonValue } from '../same-json';
import type { Doc } from '../types';
import type { StoredEntry } from './sorting';

/** The values an index holds; anything else is left to the query itself. */
export type IndexKey = string | number | boolean;

export function isIndexKey(value: unknown): value is IndexKey {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Calls `emit` with each (field path, value) a document is to be found under. */
export type KeyExtractor = (doc: Doc, emit: (path: string, key: IndexKey) => void) => void;

/**
 * Every primitive reachable through a dotted path, descending into arrays at
 * every step and at the leaf: a superset of what an equality match on the
 * path can see, which is all an index needs, since the query checks every
 * candidate afterwards.
 */
export function fieldKeys(field: string): KeyExtractor {
  const path = field.split('.');
  const reach = (value: unknown, depth: number, emit: (path: string, key: IndexKey) => void): void => {
    if (Array.isArray(value)) {
      for (const element of value) reach(element, depth, emit);
    } else if (depth === path.length) {
      if (isIndexKey(value)) emit(field, value);
    } else if (isPlainObject(value) && Object.hasOwn(value, path[depth])) {
      reach(value[path[depth]], depth + 1, emit);
    }
  };
  return (doc, emit) => reach(doc, 0, emit);
}

/**
 * Every primitive below `prefix` under its full path, as MongoDB's wildcard
 * index `<prefix>.$**` holds them: array elements under the array's own
 * path, members of objects in arrays under the path continued through them.
 */
export function wildcardKeys(prefix: string): KeyExtractor {
  const walk = (value: unknown, path: string, emit: (path: string, key: IndexKey) => void): void => {
    if (Array.isArray(value)) {
      for (const element of value) walk(element, path, emit);
    } else if (isPlainObject(value)) {
      for (const [name, member] of Object.entries(value)) walk(member, `${path}.${name}`, emit);
    } else if (isIndexKey(value)) {
      emit(path, value);
    }
  };
  const [root, ...rest] = prefix.split('.');
  return (doc, emit) => {
    let value: unknown = Object.hasOwn(doc, root) ? doc[root] : undefined;
    for (const segment of rest) value = isPlainObject(value) && Object.hasOwn(value, segment) ? value[segment] : undefined;
    walk(value, prefix, emit);
  };
}

/** One document, or several: most values of a field belong to a single document. */
type Posting = StoredEntry | StoredEntry[];

/**
 * The entries holding each (path, value), as a KeyExtractor reads them. A
 * value held once costs one reference, so near-unique values (names, ids)
 * index as cheaply as shared ones.
 */
export class PostingIndex {
  private readonly postings = new Map<string, Map<IndexKey, Posting>>();

  /** `member` is the document member every key the extractor emits is read below. */
  constructor(
    private readonly extract: KeyExtractor,
    readonly member: string,
  ) {}

  /**
   * Posts the entry under each (path, key) of its document once. A document
   * holding a key twice meets its own entry last in the posting: the keys of
   * one document are posted one after the other.
   */
  add(entry: StoredEntry): void {
    this.extract(entry.doc, (path, key) => {
      let byValue = this.postings.get(path);
      if (!byValue) {
        byValue = new Map();
        this.postings.set(path, byValue);
      }
      const posting = byValue.get(key);
      if (posting === undefined) byValue.set(key, entry);
      else if (Array.isArray(posting)) {
        if (posting[posting.length - 1] !== entry) posting.push(entry);
      } else if (posting !== entry) byValue.set(key, [posting, entry]);
    });
  }

  /** Removes the entry; its document must still be the one it was added with. A key met again finds it gone. */
  remove(entry: StoredEntry): void {
    this.extract(entry.doc, (path, key) => {
      const byValue = this.postings.get(path);
      const posting = byValue?.get(key);
      if (!byValue || posting === undefined) return;
      if (!Array.isArray(posting)) {
        if (posting === entry) byValue.delete(key);
      } else {
        const position = posting.indexOf(entry);
        // The oldest entry goes first (a kept window moving on): shift drops it without moving the rest.
        if (position === 0) posting.shift();
        else if (position > 0) posting.splice(position, 1);
        if (posting.length === 1) byValue.set(key, posting[0]);
      }
      if (byValue.size === 0) this.postings.delete(path);
    });
  }

  /** Whether the document would be found under other keys than `other`. */
  keysDiffer(doc: Doc, other: Doc): boolean {
    // Most replacements leave the member alone; comparing it costs no path texts nor key lists.
    if (sameJsonValue(ownMember(doc, this.member), ownMember(other, this.member))) return false;
    const keys = this.keysOf(doc);
    const others = this.keysOf(other);
    return keys.length !== others.length || keys.some((key, index) => key !== others[index]);
  }

  /** The entries holding `key` at `path`. */
  lookup(path: string, key: IndexKey): readonly StoredEntry[] {
    const posting = this.postings.get(path)?.get(key);
    if (posting === undefined) return [];
    return Array.isArray(posting) ? posting : [posting];
  }

  /** Paths and values in turn, as the extractor emits them. */
  private keysOf(doc: Doc): unknown[] {
    const keys: unknown[] = [];
    this.extract(doc, (path, key) => keys.push(path, key));
    return keys;
  }
}

function ownMember(doc: Doc, member: string): unknown {
  return Object.hasOwn(doc, member) ? doc[member] : undefined;
}
