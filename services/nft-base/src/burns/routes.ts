import { recordRoutes } from '@ledger-api/http';
import { LEDGER_RECORD_LIST, recordPresenter, resourceOrTransaction } from '@ledger-api/nft-read-model';
import type { Store } from '@ledger-api/store';
import { presentBurn } from './presenter';
import { burnsRepository } from './repository';
import { burnResource } from './schema';

export function burnRoutes(store: Store) {
  const { list, byId, batch } = recordRoutes({
    path: '/nft/burns',
    tags: ['NFT burns'],
    list: LEDGER_RECORD_LIST,
    item: resourceOrTransaction(burnResource),
    repository: burnsRepository(store),
    present: recordPresenter(presentBurn),
    operations: {
      list: { operationId: 'listBurns', summary: 'List NFT burns' },
      byId: { operationId: 'getBurn', summary: 'Get an NFT burn', notFound: 'Burn not found' },
      batch: { operationId: 'batchGetBurns', summary: 'Get NFT burns by their ids' },
    },
  });
  return [list, byId, batch];
}
