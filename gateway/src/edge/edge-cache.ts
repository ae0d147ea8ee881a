import { LRUCache } from 'lru-cache';

/** An answer ready to be sent: its headers (the gateway's own aside) and body. */
export interface EdgeEntry {
  headers: ReadonlyArray<readonly [string, string | string[]]>;
  body: Buffer;
}

/**
 * An answer as the service sent it, kept: for the commit it was rendered at only, or, when the
 * service said it holds until the area's data changes, for every commit after it that changed
 * nothing of the area; its X-Block-Height and X-Block-Id are then not kept but the head's when
 * it is sent (see answerAt).
 */
export interface KeptAnswer extends EdgeEntry {
  /** The generation of the commit it was rendered at. */
  renderedAt: number;
  holdsUntilDataChanges: boolean;
  /** The answer as last sent, and the generation whose head it names: made once per commit, not per hit. */
  sent?: { generation: number; answer: EdgeEntry };
}

/** Bytes an entry costs beyond its body and key: its header strings and the map's own bookkeeping. */
function entrySize(entry: EdgeEntry, key: string): number {
  let size = entry.body.length + key.length + 256;
  for (const [name, value] of entry.headers) size += name.length + String(value).length + 32;
  return size;
}

/**
 * The gateway's answers, bounded in bytes, least recently used first out. Keys hold the
 * commit that last changed the area's data when the answer was rendered, so no entry ever
 * needs invalidating: once the area's data moves on, entries of older data are never asked
 * for again and age out (an answer kept for one commit only is told apart by its renderedAt).
 */
export class EdgeCache {
  private readonly entries: LRUCache<string, KeptAnswer>;

  constructor(maxBytes: number) {
    this.entries = new LRUCache<string, KeptAnswer>({ maxSize: maxBytes, sizeCalculation: entrySize });
  }

  get(key: string): KeptAnswer | undefined {
    return this.entries.get(key);
  }

  set(key: string, entry: KeptAnswer): void {
    this.entries.set(key, entry);
  }

  /** What the entries cost, as counted against the bound. */
  get bytes(): number {
    return this.entries.calculatedSize;
  }
}
