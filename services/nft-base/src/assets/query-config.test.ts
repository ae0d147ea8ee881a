import { LEDGER_ORDER } from '@ledger-api/nft-read-model';
import { walletAssetsList } from './query-config';

describe('walletAssetsList', () => {
  it('shows its defaulted flags in links and orders by the ledger by default', () => {
    const linkFlags = { inAuction: 'false', inExpiredAuction: 'false' };
    expect(walletAssetsList).toMatchObject({ transform: true, totalCountIsEstimate: true, defaultOrder: LEDGER_ORDER, linkFlags });
    const ledgerFields = ['id', 'senderPublicKey', 'timestamp', 'blockHeight', 'sequence', 'nonce', 'fee', 'amount'];
    expect(Object.keys(walletAssetsList.orderable)).toEqual(ledgerFields);
  });
});
