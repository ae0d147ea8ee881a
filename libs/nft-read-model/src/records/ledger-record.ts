import type { Block, Timestamp, Transaction } from '@ledger-api/ledger';
import { numericSortKey, type CollectionSpec, type Doc, type IndexSpec, type Sort } from '@ledger-api/store';
import type { WalletNames } from './wallet-names';

/** Amount-like values as numerically sortable text (numericSortKey), by field name. */
export interface SortKeys {
  nonce: string;
  fee: string;
  amount: string;
  [amountField: string]: string;
}

/** What every ledger-derived NFT document holds besides its resource's own fields. */
export interface LedgerRecord extends Doc {
  senderPublicKey: string;
  blockId: string;
  blockHeight: number;
  sequence: number;
  timestamp: Timestamp;
  sortKeys: SortKeys;
  /**
   * The transaction as received, the transform=false form of the record, as
   * plain JSON in every store. Nothing queries it: it is the records' opaque
   * member (ledgerRecordCollection), which a store may hold compactly.
   */
  tx: Transaction;
}

/** The fields every record of a transaction holds; the public key is the wallets' shared copy. */
export function ledgerRecord(block: Block, tx: Transaction, sequence: number, wallets: WalletNames): LedgerRecord {
  return {
    _id: tx.id,
    senderPublicKey: wallets.shared(tx.senderPublicKey),
    blockId: block.id,
    blockHeight: block.height,
    sequence,
    timestamp: block.timestamp,
    sortKeys: { nonce: numericSortKey(tx.nonce), fee: numericSortKey(tx.fee), amount: numericSortKey(tx.amount) },
    tx,
  };
}

/** A collection of ledger records: their transaction is read back whole, never queried. */
export function ledgerRecordCollection(name: string, indexes: IndexSpec[]): CollectionSpec {
  return { name, indexes, opaqueMembers: ['tx'] };
}

/** Ledger order: the default order of every NFT list and the tie-breaker of every sort. */
export const LEDGER_ORDER = { blockHeight: 1, sequence: 1 } as const satisfies Sort;

/** API field -> stored field, for the fields every NFT and exchange resource orders by. */
export const LEDGER_RECORD_ORDERABLE: Record<string, string> = {
  id: '_id',
  senderPublicKey: 'senderPublicKey',
  timestamp: 'timestamp.epoch',
  blockHeight: 'blockHeight',
  sequence: 'sequence',
  nonce: 'sortKeys.nonce',
  fee: 'sortKeys.fee',
  amount: 'sortKeys.amount',
};

/** Fields whose index MongoDB keeps on its own, and sorts on which need no tie-breaker. */
const ALWAYS_INDEXED = ['_id'];

const LEDGER_FIELDS = Object.keys(LEDGER_ORDER);

/**
 * An index per orderable (or filtered) stored field with the ledger order
 * appended, so ascending sorts and their tie-breaks, and equality filters
 * listed in ledger order, are served by one index, plus the ledger order
 * itself. Descending sorts need ledgerSortIndexes as well.
 */
export function ledgerRecordIndexes(extraFields: string[]): IndexSpec[] {
  const skipped = [...LEDGER_FIELDS, ...ALWAYS_INDEXED];
  const fields = new Set([...Object.values(LEDGER_RECORD_ORDERABLE), ...extraFields].filter((field) => !skipped.includes(field)));
  return [{ key: { ...LEDGER_ORDER } }, ...[...fields].map((field) => ({ key: { [field]: 1 as const, ...LEDGER_ORDER } }))];
}

/**
 * The indexes the other sorts of a list need. Ties always fall back to the
 * ledger order ascending (docs/behaviour.md §4), so `{f: -1, blockHeight: 1,
 * sequence: 1}` is neither `{f: 1, blockHeight: 1, sequence: 1}` nor its
 * reverse and needs an index of its own; so do the ledger fields themselves
 * sorted on their own (`sequence` first, or `blockHeight` descending).
 */
export function ledgerSortIndexes(extraOrderable: string[]): IndexSpec[] {
  const skipped = [...LEDGER_FIELDS, ...ALWAYS_INDEXED];
  const fields = new Set([...Object.values(LEDGER_RECORD_ORDERABLE), ...extraOrderable].filter((field) => !skipped.includes(field)));
  return [
    { key: { blockHeight: -1, sequence: 1 } },
    { key: { sequence: 1, blockHeight: 1 } },
    { key: { sequence: -1, blockHeight: 1 } },
    ...[...fields].map((field) => ({ key: { [field]: -1 as const, ...LEDGER_ORDER } })),
  ];
}

export interface RawTransaction extends Transaction {
  blockId: string;
  blockHeight: number;
  sequence: number;
}

/** The transform=false form: the ledger transaction as received plus where it sits; nothing derived. */
export function rawTransaction(doc: LedgerRecord): RawTransaction {
  return { ...doc.tx, blockId: doc.blockId, blockHeight: doc.blockHeight, sequence: doc.sequence };
}
