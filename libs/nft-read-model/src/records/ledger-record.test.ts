import type { Block, Transaction } from '@ledger-api/ledger';
import { LEDGER_ORDER, ledgerRecord, ledgerRecordCollection, ledgerRecordIndexes, ledgerSortIndexes, rawTransaction } from './ledger-record';
import { WalletNames } from './wallet-names';

const tx: Transaction = {
  id: 'a'.repeat(64),
  typeGroup: 9000,
  type: 3,
  nonce: '12',
  senderPublicKey: '02' + 'b'.repeat(64),
  fee: '9007199254740993',
  amount: '0',
  asset: { nftBurn: { nftId: 'c'.repeat(64) } },
};
const block: Block = {
  id: 'd'.repeat(64),
  height: 7,
  previousBlock: 'e'.repeat(64),
  timestamp: { epoch: 56, unix: 1_490_101_256, human: '2017-03-21T13:00:56.000Z' },
  transactions: [tx],
};

describe('ledgerRecord', () => {
  const wallets = new WalletNames(23);

  it('holds where the transaction sits, numeric sort keys for its amounts and the transaction as received, as plain JSON', () => {
    const record = ledgerRecord(block, tx, 3, wallets);
    expect(record).toEqual({
      _id: tx.id,
      senderPublicKey: tx.senderPublicKey,
      blockId: block.id,
      blockHeight: 7,
      sequence: 3,
      timestamp: block.timestamp,
      sortKeys: { nonce: '000212', fee: '00169007199254740993', amount: '00010' },
      tx,
    });
    expect(JSON.parse(JSON.stringify(record)).tx).toEqual(tx);
  });

  it('lives in collections that declare its transaction opaque, which nothing queries', () => {
    expect(ledgerRecordCollection('assets', [])).toEqual({ name: 'assets', indexes: [], opaqueMembers: ['tx'] });
  });

  it('gives back the raw transaction, in its own member order, with blockId, blockHeight and sequence, and nothing derived', () => {
    const raw = rawTransaction({ ...ledgerRecord(block, tx, 3, wallets), extra: 'derived' });
    expect(raw).toEqual({ ...tx, blockId: block.id, blockHeight: 7, sequence: 3 });
    expect(JSON.stringify(raw)).toBe(JSON.stringify({ ...tx, blockId: block.id, blockHeight: 7, sequence: 3 }));
  });
});

describe('ledgerRecordIndexes', () => {
  it('indexes the ledger order and every orderable or extra field followed by the ledger order', () => {
    const keys = ledgerRecordIndexes(['name', 'name', 'sortKeys.fee']).map((index) => index.key);
    expect(keys[0]).toEqual(LEDGER_ORDER);
    expect(keys).toContainEqual({ name: 1, blockHeight: 1, sequence: 1 });
    expect(keys).toContainEqual({ 'timestamp.epoch': 1, blockHeight: 1, sequence: 1 });
    expect(keys.filter((key) => 'sortKeys.fee' in key)).toHaveLength(1);
    expect(keys.filter((key) => Object.keys(key)[0] === 'blockHeight')).toHaveLength(1);
  });
});

describe('ledgerSortIndexes', () => {
  it('indexes every orderable field descending with the ledger order ascending after it, and the ledger fields alone', () => {
    const keys = ledgerSortIndexes(['name']).map((index) => index.key);
    expect(keys).toContainEqual({ name: -1, blockHeight: 1, sequence: 1 });
    expect(keys).toContainEqual({ 'sortKeys.fee': -1, blockHeight: 1, sequence: 1 });
    expect(keys).toContainEqual({ blockHeight: -1, sequence: 1 });
    expect(keys).toContainEqual({ sequence: 1, blockHeight: 1 });
    expect(keys).toContainEqual({ sequence: -1, blockHeight: 1 });
    // MongoDB indexes _id on its own, and a sort on it takes no tie-breaker.
    expect(keys.filter((key) => '_id' in key)).toEqual([]);
  });
});
