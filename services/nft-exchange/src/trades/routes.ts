import { defineRoute, notFound, pagedEnvelope, pagedListShape, transactionByIdShape } from '@ledger-api/http';
import { presentRecord, presentRecords, resourceOrTransaction } from '@ledger-api/nft-read-model';
import type { Store } from '@ledger-api/store';
import { presentTrade, presentTradeDetail } from './presenter';
import { tradesList } from './query-config';
import { tradesRepository } from './repository';
import { tradeDetailResource, tradeResource, tradeSearchBody } from './schema';

const TAGS = ['Exchange trades'];
const tradeOrTransaction = resourceOrTransaction(tradeResource);

export function tradeRoutes(store: Store) {
  const repository = tradesRepository(store);
  return [
    defineRoute({
      method: 'get',
      path: '/nft/exchange/trades',
      summary: 'List completed trades',
      tags: TAGS,
      ...pagedListShape(tradesList, tradeOrTransaction),
      async handler({ query, location }) {
        const { items, totalCount } = await repository.list(query);
        return pagedEnvelope(location, tradesList, query, presentRecords(items, query.transform, presentTrade), totalCount);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/nft/exchange/trades/:id',
      summary: 'Get a trade by its transaction id, with its auction and accepted bid',
      description: 'With transform=false: the raw trade transaction only.',
      tags: TAGS,
      ...transactionByIdShape(resourceOrTransaction(tradeDetailResource)),
      async handler({ params, query }) {
        const trade = await repository.findWithParties(params.id);
        if (!trade) throw notFound('Trade not found');
        return { data: presentRecord(trade, query.transform, presentTradeDetail) };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/nft/exchange/trades/search',
      summary: 'Search completed trades',
      description: 'Members combine with AND.',
      tags: TAGS,
      ...pagedListShape(tradesList, tradeOrTransaction),
      body: tradeSearchBody,
      async handler({ query, body, location }) {
        const { items, totalCount } = await repository.search(body, query);
        return pagedEnvelope(location, tradesList, query, presentRecords(items, query.transform, presentTrade), totalCount);
      },
    }),
  ];
}
