import { AsyncLocalStorage } from 'node:async_hooks';
import type { HistoryReads, ServedLedgerState } from '@ledger-api/http';
import { blockIdAt, storeAtHeight, type ReadStore } from '@ledger-api/ledger';
import type { CollectionSpec, Doc, ReadCollection, Store, Write } from '@ledger-api/store';
import type { CommitFeed } from './commit-feed';
import type { ServiceConfig } from './config';

/**
 * The store an area's routes read, and the reads at a past height it serves.
 *
 * Repositories are built once, over this store, and read it unchanged: each
 * read goes to the store as it stood at the height the request asked for
 * (a view set for the request's async context by `readAt`), else to the
 * store itself. That keeps every repository and the paging code as they are,
 * and no request can see another's height, whatever runs in between.
 */
export function storeWithHistory(
  store: Store,
  config: Pick<ServiceConfig, 'HISTORY_BLOCKS' | 'LIST_HISTORY_BLOCKS' | 'UNDO_RETENTION' | 'FINALITY_DEPTH'>,
  commits: CommitsSeen,
) {
  const views = new AsyncLocalStorage<ReadStore>();
  // Without history (HISTORY_BLOCKS=0) every window holds the newest height alone.
  const kept = config.HISTORY_BLOCKS > 0;
  const history: HistoryReads = {
    pointBlocks: kept ? config.HISTORY_BLOCKS : 1,
    listBlocks: kept ? config.LIST_HISTORY_BLOCKS : 1,
    finalityDepth: config.FINALITY_DEPTH || config.UNDO_RETENTION,
    blockIdAt: (height) => blockIdAt(store, height),
    readAt: (height, work) => views.run(storeAtHeight(store, height), work),
    waitFor: (height, timeoutMs) => stateOnceAt(commits, height, timeoutMs),
  };
  return { store: new RequestHeightStore(store, () => views.getStore()), history };
}

/** How a process learns of commits: the area's commit feed (which an api replica fills by reading the stored position), and its served state. */
export interface CommitsSeen {
  feed: Pick<CommitFeed, 'current' | 'subscribe'>;
  servedState(): Promise<ServedLedgerState>;
}

/** The served state once the feed announced a commit at `height` or above, or once `timeoutMs` ran out. */
async function stateOnceAt({ feed, servedState }: CommitsSeen, height: number, timeoutMs: number): Promise<ServedLedgerState> {
  if (feed.current().position.height < height) {
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        unsubscribe();
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      const unsubscribe = feed.subscribe(() => {
        if (feed.current().position.height >= height) done();
      });
    });
  }
  return servedState();
}

/** A store whose reads go to the view of the request in hand, if it has one. */
class RequestHeightStore implements Store {
  readonly kind: Store['kind'];
  readonly atomic: boolean;

  constructor(
    private readonly store: Store,
    private readonly view: () => ReadStore | undefined,
  ) {
    this.kind = store.kind;
    this.atomic = store.atomic;
  }

  collection<T extends Doc = Doc>(name: string): ReadCollection<T> {
    const head = this.store.collection<T>(name);
    const read = () => this.view()?.collection<T>(name) ?? head;
    return {
      findById: (id) => read().findById(id),
      findOne: (filter, options) => read().findOne(filter, options),
      find: (filter, options) => read().find(filter, options),
      count: (filter) => read().count(filter),
      estimatedCount: () => read().estimatedCount(),
    };
  }

  ensureCollections(specs: CollectionSpec[]): Promise<void> {
    return this.store.ensureCollections(specs);
  }

  applyWrites(writes: Write[]): Promise<void> {
    return this.store.applyWrites(writes);
  }

  commit(work: () => Promise<void>): Promise<void> {
    return this.store.commit(work);
  }

  readConsistently<T>(work: () => Promise<T>): Promise<T> {
    return this.store.readConsistently(work);
  }

  ping(): Promise<void> {
    return this.store.ping();
  }

  close(): Promise<void> {
    return this.store.close();
  }
}
