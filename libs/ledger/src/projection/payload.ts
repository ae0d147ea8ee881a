import { LedgerFault } from '../fault';
import type { BlockRef, Transaction } from '../types';

interface SchemaIssue {
  readonly path: readonly PropertyKey[];
  readonly message: string;
}

/** What parsing a transaction needs of its schema: a zod schema is one, without this library depending on zod. */
export interface TransactionSchema<T> {
  safeParse(value: unknown): { success: true; data: T } | { success: false; error: { issues: readonly SchemaIssue[] } };
}

/**
 * Reads a transaction with the schema of its type. The ledger has validated
 * every transaction, so one of another shape means the input cannot be
 * followed: a fault naming the block, the transaction and its first problem,
 * rather than an error that would be retried forever.
 */
export function parseTransaction<T>(schema: TransactionSchema<T>, block: BlockRef, tx: Transaction, sequence: number): T {
  const result = schema.safeParse(tx);
  if (result.success) return result.data;
  const [issue] = result.error.issues;
  const where = `transaction ${tx.id} (sequence ${sequence}, type ${tx.typeGroup}/${tx.type})`;
  throw new LedgerFault(`${where} does not have the shape of its type: ${describeIssue(issue)}`, { id: block.id, height: block.height });
}

function describeIssue({ path, message }: SchemaIssue): string {
  const member = path.map((key, index) => (typeof key === 'number' ? `[${key}]` : `${index === 0 ? '' : '.'}${String(key)}`)).join('');
  return member ? `${member}: ${message}` : message;
}
