import { recordByIdRoute, recordListRoute, recordSearchRoute } from '@ledger-api/nft-model';
import type { Store } from '@ledger-api/store';
import { presentTrade, presentTradeDetail } from './presenter';
import { tradesList } from './query-config';
import { tradesRepository } from './repository';
import { tradeDetailResource, tradeResource, tradeSearchBody } from './schema';

const TAGS = ['Exchange trades'];

export function tradeRoutes(store: Store) {
  const repository = tradesRepository(store);
  const shape = { tags: TAGS, resource: tradeResource, present: presentTrade };
  return [
    recordListRoute({ ...shape, path: '/nft/exchange/trades', summary: 'List completed trades', config: tradesList, page: repository.list }),
    recordByIdRoute({
      path: '/nft/exchange/trades/:id',
      summary: 'Get a trade by its transaction id, with its auction and accepted bid',
      description: 'With transform=false: the raw trade transaction only.',
      tags: TAGS,
      resource: tradeDetailResource,
      present: presentTradeDetail,
      notFoundMessage: 'Trade not found',
      find: repository.findWithParties,
    }),
    recordSearchRoute({
      ...shape,
      path: '/nft/exchange/trades/search',
      summary: 'Search completed trades',
      description: 'Members combine with AND.',
      config: tradesList,
      body: tradeSearchBody,
      search: repository.search,
    }),
  ];
}
