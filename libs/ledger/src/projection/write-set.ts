import { freezeDocument, type Doc, type Store, type Write } from '@ledger-api/store';
import type { Block } from '../types';
import type { ProjectionContext } from './types';

// Jest sets NODE_ENV to "test": every projection's tests then check it changes neither what it read nor what it put.
const FREEZE_DOCUMENTS = process.env.NODE_ENV === 'test';

/** What the runner needs of a store to read documents while a block is applied. */
export type DocumentReader = Pick<Store, 'collection'>;

interface TouchedDocument {
  collection: string;
  id: string;
  /** The stored document before the block; undefined until it has been read. */
  before?: Doc | null;
  /** The document as the block leaves it; undefined while the block has only read it. */
  after?: Doc | null;
}

/** The effect of one block: the documents it writes and what they were before. */
export interface BlockChanges {
  /** Before-images, in the order the block first touched each document. */
  before: Write[];
  /** Final state of every written document, in the same order. */
  after: Write[];
}

/**
 * The ProjectionContext of one block. Reads see the block's own earlier writes;
 * writes stay buffered until the runner commits them together with the
 * before-images that make the block revertible. Neither way is a document
 * copied (see ProjectionContext): a read hands out the stored document or the
 * one the block put, and a put takes the document as it is. Under tests both
 * are frozen, so a projection that changes one fails there.
 */
export class BlockWriteSet implements ProjectionContext {
  private readonly touched = new Map<string, Map<string, TouchedDocument>>();
  private readonly inTouchOrder: TouchedDocument[] = [];

  constructor(
    private readonly store: DocumentReader,
    readonly block: Block,
  ) {}

  async get<T extends Doc>(collection: string, id: string): Promise<Readonly<T> | null> {
    const entry = this.entry(collection, id);
    const doc = entry.after !== undefined ? entry.after : await this.before(entry);
    return (FREEZE_DOCUMENTS ? freezeDocument(doc) : doc) as Readonly<T> | null;
  }

  put(collection: string, doc: Doc): void {
    this.entry(collection, doc._id).after = FREEZE_DOCUMENTS ? freezeDocument(doc) : doc;
  }

  remove(collection: string, id: string): void {
    this.entry(collection, id).after = null;
  }

  /** Reads the before-images the block has not read itself; the store is unchanged until commit. */
  async changes(): Promise<BlockChanges> {
    const before: Write[] = [];
    const after: Write[] = [];
    for (const entry of this.inTouchOrder) {
      if (entry.after === undefined) continue;
      const { collection, id } = entry;
      before.push({ collection, id, doc: await this.before(entry) });
      after.push({ collection, id, doc: entry.after });
    }
    return { before, after };
  }

  private entry(collection: string, id: string): TouchedDocument {
    let inCollection = this.touched.get(collection);
    if (!inCollection) {
      inCollection = new Map();
      this.touched.set(collection, inCollection);
    }
    let entry = inCollection.get(id);
    if (!entry) {
      entry = { collection, id };
      inCollection.set(id, entry);
      this.inTouchOrder.push(entry);
    }
    return entry;
  }

  /** The stored document, which nothing changes: the store replaces it whole on commit. */
  private async before(entry: TouchedDocument): Promise<Doc | null> {
    if (entry.before === undefined) {
      const documents = this.store.collection(entry.collection);
      entry.before = await (documents.findStoredById ? documents.findStoredById(entry.id) : documents.findById(entry.id));
    }
    return entry.before;
  }
}
