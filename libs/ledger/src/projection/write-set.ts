import type { DeepReadonly, Doc } from '@ledger-api/store';
import { freezeDocument } from '@ledger-api/store/document-guard';
import type { Block } from '../types';
import type { ProjectionContext } from './types';

/** How the block reads a stored document: shared with the store where it can be (EmbeddedEngine), read-only either way. */
export type DocumentReader = (collection: string, id: string) => Promise<DeepReadonly<Doc> | null>;

/** One document-level change of a block, with a document nobody changes any more. */
export interface BlockWrite {
  readonly collection: string;
  readonly id: string;
  doc: DeepReadonly<Doc> | null;
}

/** The effect of one block: the documents it writes and what they were before. */
export interface BlockChanges {
  /** Before-images, in the order the block first wrote each document. */
  before: BlockWrite[];
  /** Final state of every written document, in the same order. */
  after: BlockWrite[];
}

/**
 * The ProjectionContext of one block. Reads see the block's own earlier writes;
 * writes stay buffered until the runner commits them together with the
 * undo steps that make the block revertible. Neither way is a document
 * copied (see ProjectionContext): a read hands out the stored document or the
 * one the block put, and a put takes the document as it is. With `guard` on,
 * both are frozen, so a projection that changes one fails at once.
 */
export class BlockWriteSet implements ProjectionContext {
  private readonly written = new Map<string, Map<string, BlockWrite>>();
  private readonly inWriteOrder: BlockWrite[] = [];
  /** What the block read of the store, which stays unchanged until commit: the before-images of what it then writes. */
  private readonly storeReads = new Map<string, Map<string, Promise<DeepReadonly<Doc> | null>>>();

  constructor(
    private readonly read: DocumentReader,
    readonly block: Block,
    private readonly guard: boolean,
  ) {}

  /** Not itself async: a projection reads several documents per transaction, and each async frame costs a promise more. */
  get<T extends Doc>(collection: string, id: string): Promise<DeepReadonly<T> | null> {
    const written = this.written.get(collection)?.get(id);
    const doc = written ? Promise.resolve(written.doc) : this.storeRead(collection, id);
    return (this.guard ? doc.then(freezeDocument) : doc) as Promise<DeepReadonly<T> | null>;
  }

  put(collection: string, doc: DeepReadonly<Doc>): void {
    this.write(collection, doc._id, this.guard ? freezeDocument(doc) : doc);
  }

  remove(collection: string, id: string): void {
    this.write(collection, id, null);
  }

  /** Reads the before-images (the store is unchanged until commit); the block's writes end here. */
  async changes(): Promise<BlockChanges> {
    const before: BlockWrite[] = [];
    for (const { collection, id } of this.inWriteOrder) before.push({ collection, id, doc: await this.storeRead(collection, id) });
    return { before, after: this.inWriteOrder };
  }

  private storeRead(collection: string, id: string): Promise<DeepReadonly<Doc> | null> {
    const inCollection = byIdIn(this.storeReads, collection);
    let read = inCollection.get(id);
    if (!read) {
      read = this.read(collection, id);
      inCollection.set(id, read);
    }
    return read;
  }

  private write(collection: string, id: string, doc: DeepReadonly<Doc> | null): void {
    const inCollection = byIdIn(this.written, collection);
    const written = inCollection.get(id);
    if (written) {
      written.doc = doc;
      return;
    }
    const document = { collection, id, doc };
    inCollection.set(id, document);
    this.inWriteOrder.push(document);
  }
}

/** The entries of one collection, by id, in a map of them by collection. */
function byIdIn<V>(byCollection: Map<string, Map<string, V>>, collection: string): Map<string, V> {
  let inCollection = byCollection.get(collection);
  if (!inCollection) {
    inCollection = new Map();
    byCollection.set(collection, inCollection);
  }
  return inCollection;
}
