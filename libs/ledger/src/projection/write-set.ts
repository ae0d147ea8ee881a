import { freezeDocument, type Doc, type Store, type Write } from '@ledger-api/store';
import type { Block } from '../types';
import type { ProjectionContext } from './types';

// Jest sets NODE_ENV to "test": every projection's tests then check it changes neither what it read nor what it put.
const FREEZE_DOCUMENTS = process.env.NODE_ENV === 'test';

/** What the runner needs of a store to read documents while a block is applied. */
export type DocumentReader = Pick<Store, 'collection'>;

/** A document the block wrote, as the block leaves it: `doc` null once removed. */
type WrittenDocument = Write;

/** The effect of one block: the documents it writes and what they were before. */
export interface BlockChanges {
  /** Before-images, in the order the block first wrote each document. */
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
  private readonly written = new Map<string, Map<string, WrittenDocument>>();
  private readonly inWriteOrder: WrittenDocument[] = [];

  constructor(
    private readonly store: DocumentReader,
    readonly block: Block,
  ) {}

  /** Not itself async: a projection reads several documents per transaction, and each async frame costs a promise more. */
  get<T extends Doc>(collection: string, id: string): Promise<Readonly<T> | null> {
    const written = this.written.get(collection)?.get(id);
    const doc = written ? Promise.resolve(written.doc) : this.stored(collection, id);
    return (FREEZE_DOCUMENTS ? doc.then(freezeDocument) : doc) as Promise<Readonly<T> | null>;
  }

  put(collection: string, doc: Doc): void {
    this.write(collection, doc._id, FREEZE_DOCUMENTS ? freezeDocument(doc) : doc);
  }

  remove(collection: string, id: string): void {
    this.write(collection, id, null);
  }

  /** Reads the before-images (the store is unchanged until commit); the block's writes end here. */
  async changes(): Promise<BlockChanges> {
    const before: Write[] = [];
    for (const { collection, id } of this.inWriteOrder) before.push({ collection, id, doc: await this.stored(collection, id) });
    return { before, after: this.inWriteOrder };
  }

  private write(collection: string, id: string, doc: Doc | null): void {
    let inCollection = this.written.get(collection);
    if (!inCollection) {
      inCollection = new Map();
      this.written.set(collection, inCollection);
    }
    const written = inCollection.get(id);
    if (written) {
      written.doc = doc;
      return;
    }
    const document = { collection, id, doc };
    inCollection.set(id, document);
    this.inWriteOrder.push(document);
  }

  /** The stored document, which nothing changes: the store replaces it whole on commit. */
  private stored(collection: string, id: string): Promise<Doc | null> {
    const documents = this.store.collection(collection);
    return documents.findStoredById ? documents.findStoredById(id) : documents.findById(id);
  }
}
