import { recordByIdRoute, recordListRoute } from '@ledger-api/nft-model';
import type { Store } from '@ledger-api/store';
import { presentBurn } from './presenter';
import { burnsList } from './query-config';
import { burnsRepository } from './repository';
import { burnResource } from './schema';

const TAGS = ['NFT burns'];

export function burnRoutes(store: Store) {
  const repository = burnsRepository(store);
  const shape = { tags: TAGS, resource: burnResource, present: presentBurn };
  return [
    recordListRoute({ ...shape, path: '/nft/burns', summary: 'List NFT burns', config: burnsList, page: repository.list }),
    recordByIdRoute({ ...shape, path: '/nft/burns/:id', summary: 'Get an NFT burn', notFoundMessage: 'Burn not found', find: repository.findById }),
  ];
}
