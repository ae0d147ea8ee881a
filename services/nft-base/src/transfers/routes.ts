import { recordRoutes } from '@ledger-api/http';
import { LEDGER_RECORD_LIST, recordPresenter, resourceOrTransaction } from '@ledger-api/nft-read-model';
import type { Store } from '@ledger-api/store';
import { presentTransfer } from './presenter';
import { transfersRepository } from './repository';
import { transferResource } from './schema';

export function transferRoutes(store: Store) {
  const { list, byId, batch } = recordRoutes({
    path: '/nft/transfers',
    tags: ['NFT transfers'],
    list: LEDGER_RECORD_LIST,
    item: resourceOrTransaction(transferResource),
    repository: transfersRepository(store),
    present: recordPresenter(presentTransfer),
    operations: {
      list: { operationId: 'listTransfers', summary: 'List NFT transfers' },
      byId: { operationId: 'getTransfer', summary: 'Get an NFT transfer', notFound: 'Transfer not found' },
      batch: { operationId: 'batchGetTransfers', summary: 'Get NFT transfers by their ids' },
    },
  });
  return [list, byId, batch];
}
