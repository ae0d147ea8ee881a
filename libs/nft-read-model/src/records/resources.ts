import { z } from 'zod';
import { rawTransaction, type LedgerRecord, type RawTransaction } from './ledger-record';

export const timestampResource = z
  .object({
    epoch: z.number().int(),
    unix: z.number().int().meta({ description: 'Unix time' }),
    human: z.string().meta({ description: 'ISO 8601 UTC date-time with milliseconds' }),
  })
  .meta({ title: 'Timestamp' });

/** The transform=false item: a ledger transaction with blockId, blockHeight and sequence. */
export const rawTransactionResource = z
  .object({
    id: z.string(),
    typeGroup: z.number().int(),
    type: z.number().int(),
    blockId: z.string(),
    blockHeight: z.number().int(),
    sequence: z.number().int(),
  })
  .loose()
  .meta({ title: 'Ledger transaction' });

/** What a route over records answers per item: the resource shape, or with transform=false the raw transaction. */
export const resourceOrTransaction = <R extends z.ZodType>(resource: R) => z.union([resource, rawTransactionResource]);

/** The resource shape, or with transform=false the raw transaction. */
export function presentRecord<D extends LedgerRecord, R>(doc: D, transform: boolean, toResource: (doc: D) => R): R | RawTransaction {
  return transform ? toResource(doc) : rawTransaction(doc);
}

/** A page of records, each in its resource shape or, with transform=false, as its raw transaction. */
export function presentRecords<D extends LedgerRecord, R>(docs: D[], transform: boolean, toResource: (doc: D) => R): Array<R | RawTransaction> {
  return docs.map((doc) => presentRecord(doc, transform, toResource));
}
