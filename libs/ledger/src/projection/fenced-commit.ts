import type { EmbeddedEngine, HeldWrite, Store, Write } from '@ledger-api/store';
import { FencedOut } from '../lease/types';
import { readStoredLedgerState, storedLedgerStateWrite } from './stored-position';

/** Writes whose documents nobody changes any more, which an embedded engine holds as they are (EmbeddedEngine). */
export interface HandedOver {
  handedOver: HeldWrite[];
}

/** What a fenced commit needs of a store, and the store's embedded engine where it has one. */
export type FencedStore = Pick<Store, 'collection' | 'applyWrites' | 'commit' | 'atomic'>;
export type HeldWriter = Pick<EmbeddedEngine, 'applyHeldWrites'>;

/** Refuses to go on when a later lease holder has claimed the read model than the one holding `token`. */
async function assertNotFencedOut(store: FencedStore, token: number | undefined): Promise<void> {
  if (token === undefined) return;
  const { fence } = await readStoredLedgerState(store);
  if (fence > token) throw new FencedOut(token, fence);
}

/**
 * Writes the batches as one commit, in order, by a writer holding the lease `token` (undefined:
 * a writer without a lease). Each batch is built only when it is written. Without transactions
 * every batch checks the fence, so a writer that stalled mid-commit writes nothing more once its
 * successor claimed the read model; in a transaction one check covers the commit, since the
 * successor's claim writes the document the check read, and one of the two transactions fails.
 */
export async function commitFenced(
  store: FencedStore,
  token: number | undefined,
  batches: Array<() => Write[] | HandedOver>,
  engine?: HeldWriter,
): Promise<void> {
  await store.commit(async () => {
    for (const [index, batch] of batches.entries()) {
      if (index === 0 || !store.atomic) await assertNotFencedOut(store, token);
      const built = batch();
      if (Array.isArray(built)) {
        if (built.length > 0) await store.applyWrites(built);
      } else if (built.handedOver.length > 0) {
        await (engine ? engine.applyHeldWrites(built.handedOver) : store.applyWrites(built.handedOver));
      }
    }
  });
}

/** Makes `token` the read model's fence, unless a later holder claimed it already (FencedOut). */
export async function claimReadModel(store: FencedStore, token: number): Promise<void> {
  await store.commit(async () => {
    const stored = await readStoredLedgerState(store);
    if (stored.fence > token) throw new FencedOut(token, stored.fence);
    await store.applyWrites([storedLedgerStateWrite({ ...stored, fence: token })]);
  });
}
