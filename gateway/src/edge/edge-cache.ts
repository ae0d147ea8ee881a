import { LRUCache } from 'lru-cache';

/** An answer as the service sent it, ready to be sent again: its headers (the gateway's own aside) and body. */
export interface EdgeEntry {
  headers: ReadonlyArray<readonly [string, string | string[]]>;
  body: Buffer;
}

/** Bytes an entry costs beyond its body and key: its header strings and the map's own bookkeeping. */
function entrySize(entry: EdgeEntry, key: string): number {
  let size = entry.body.length + key.length + 256;
  for (const [name, value] of entry.headers) size += name.length + String(value).length + 32;
  return size;
}

/**
 * The gateway's answers, bounded in bytes, least recently used first out. Keys hold the
 * commit an answer was rendered at, so no entry ever needs invalidating: once the area
 * moves on, entries of older commits are never asked for again and age out.
 */
export class EdgeCache {
  private readonly entries: LRUCache<string, EdgeEntry>;

  constructor(maxBytes: number) {
    this.entries = new LRUCache<string, EdgeEntry>({ maxSize: maxBytes, sizeCalculation: entrySize });
  }

  get(key: string): EdgeEntry | undefined {
    return this.entries.get(key);
  }

  /** Whether an entry is kept, without making it the most recently used. */
  has(key: string): boolean {
    return this.entries.has(key);
  }

  set(key: string, entry: EdgeEntry): void {
    this.entries.set(key, entry);
  }

  /** What the entries cost, as counted against the bound. */
  get bytes(): number {
    return this.entries.calculatedSize;
  }
}
