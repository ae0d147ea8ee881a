import { LEDGER_ORDER } from '@ledger-api/nft-read-model';
import { collectionsList } from './query-config';

describe('collectionsList', () => {
  it('takes transform, flags the count as an estimate and orders by the ledger by default', () => {
    expect(collectionsList).toMatchObject({ transform: true, totalCountIsEstimate: true, defaultOrder: LEDGER_ORDER });
    const ledgerFields = ['id', 'senderPublicKey', 'timestamp', 'blockHeight', 'sequence', 'nonce', 'fee', 'amount'];
    expect(Object.keys(collectionsList.orderable)).toEqual([...ledgerFields, 'name', 'maximumSupply']);
  });
});
