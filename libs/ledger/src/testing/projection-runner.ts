import { silentLogger } from '@ledger-api/observability';
import { EmbeddedStore } from '@ledger-api/store';
import { LedgerFault } from '../fault';
import { ProjectionRunner } from '../projection/runner';
import type { Projection } from '../projection/types';
import type { LedgerEvent, Transaction } from '../types';
import { readModel } from './read-model';

/** A projection straight over an embedded store, fed events as the next stream messages. */
export async function startProjectionRunner(projection: Projection) {
  const store = new EmbeddedStore();
  const runner = new ProjectionRunner({ store, projection, logger: silentLogger() });
  await runner.init();
  let streamSeq = 0;
  const handle = async (...events: LedgerEvent[]) => {
    for (const event of events) await runner.handle(event, ++streamSeq);
  };
  /** Every stored document, the position and undo records included. */
  const stored = () => readModel(store, projection);
  return { store, runner, handle, stored };
}

export type TestProjectionRunner = Awaited<ReturnType<typeof startProjectionRunner>>;

/**
 * Hands over a block holding a malformed transaction and checks the fault names
 * the block and the transaction with its problem, and that nothing of the block
 * was stored.
 */
export async function expectMalformedTransactionRefused(
  { runner, handle, stored }: TestProjectionRunner,
  event: LedgerEvent,
  bad: { transaction: Transaction; sequence: number; problem: string },
): Promise<void> {
  const before = await stored();
  const position = runner.position;
  const { block } = event;
  const { transaction, sequence, problem } = bad;
  const fault = await handle(event).catch((error: unknown) => error);
  expect(fault).toBeInstanceOf(LedgerFault);
  expect(fault).toMatchObject({ block: { id: block.id, height: block.height } });
  const where = `block ${block.height} (${block.id}): transaction ${transaction.id} (sequence ${sequence}, type ${transaction.typeGroup}/${transaction.type})`;
  expect((fault as LedgerFault).message).toContain(where);
  expect((fault as LedgerFault).reason).toContain(problem);
  expect(runner.position).toEqual(position);
  expect(await stored()).toEqual(before);
}
