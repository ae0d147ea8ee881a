import { silentLogger } from '@ledger-api/observability';
import { createStore, type Doc } from '@ledger-api/store';
import { ProjectionRunner } from '../projection/runner';
import type { LedgerStore } from '../projection/types';
import { UNDO_COLLECTION } from '../projection/undo';
import { UNDO_IMAGES_COLLECTION } from '../projection/undo-images';
import { POSITION_COLLECTION } from '../projection/stored-position';
import type { Projection } from '../projection/types';
import { Projector } from '../projector';
import { FileLedgerSource } from '../sources/file';
import { waitFor } from '@ledger-api/test-kit';

/** Every stored document, by collection, sorted by id: the projection's collections and the runner's bookkeeping. */
export async function readModel(store: LedgerStore, projection: Projection): Promise<Record<string, Doc[]>> {
  const names = [...projection.collections.map((spec) => spec.name), POSITION_COLLECTION, UNDO_COLLECTION, UNDO_IMAGES_COLLECTION];
  const model: Record<string, Doc[]> = {};
  for (const name of names) {
    const docs = await store.collection(name).find({});
    model[name] = docs.sort((a, b) => (a._id < b._id ? -1 : a._id > b._id ? 1 : 0));
  }
  // Its name tells one read model from another; two equal ones still differ in it.
  for (const position of model[POSITION_COLLECTION]) delete position.readModel;
  return model;
}

/** The read model a plain in-process replay of a ledger file ends with, in a fresh embedded store. */
export async function fileReplayReadModel(path: string, projection: Projection): Promise<Record<string, Doc[]>> {
  const store = await createStore({ dbName: 'file-replay' });
  const runner = new ProjectionRunner({ store, projection, logger: silentLogger() });
  const projector = new Projector({ runner, source: new FileLedgerSource(path), logger: silentLogger(), caughtUpPollMs: 10 });
  await projector.start();
  try {
    await waitFor(() => projector.ready() || projector.status().state === 'faulted', `the replay of ${path}`);
    if (!projector.ready()) throw new Error(`the replay of ${path} faulted: ${projector.status().fault}`);
    return await readModel(store, projection);
  } finally {
    await projector.stop();
    await store.close();
  }
}
