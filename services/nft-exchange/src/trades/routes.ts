import { batchLookupRoute, defineRoute, notFound, pagedEnvelope, pagedListShape, transactionByIdShape } from '@ledger-api/http';
import { presentRecord, presentRecords, resourceOrTransaction } from '@ledger-api/nft-read-model';
import type { Store } from '@ledger-api/store';
import { presentTrade, presentTradeDetail } from './presenter';
import { tradesList } from './query-config';
import { tradesRepository } from './repository';
import { tradeDetailResource, tradeResource, tradeSearchBody } from './schema';

const TAGS = ['Exchange trades'];
const tradeOrTransaction = resourceOrTransaction(tradeResource);
/** What GET /nft/exchange/trades/{id} answers, and a batch lookup for each trade found. */
const tradeDetailOrTransaction = resourceOrTransaction(tradeDetailResource);
const RAW_TRADE_ONLY = 'With transform=false: the raw trade transaction only.';

export function tradeRoutes(store: Store) {
  const repository = tradesRepository(store);
  return [
    defineRoute({
      method: 'get',
      path: '/nft/exchange/trades',
      operationId: 'listTrades',
      summary: 'List completed trades',
      tags: TAGS,
      ...pagedListShape(tradesList, tradeOrTransaction),
      async handler({ query, location }) {
        const page = await repository.list(query);
        return pagedEnvelope(location, tradesList, query, page, presentRecords(page.items, query.transform, presentTrade));
      },
    }),
    defineRoute({
      method: 'get',
      path: '/nft/exchange/trades/:id',
      operationId: 'getTrade',
      summary: 'Get a trade by its transaction id, with its auction and accepted bid',
      description: RAW_TRADE_ONLY,
      tags: TAGS,
      ...transactionByIdShape(tradeDetailOrTransaction),
      async handler({ params, query }) {
        const trade = await repository.findWithParties(params.id);
        if (!trade) throw notFound('Trade not found');
        return { data: presentRecord(trade, query.transform, presentTradeDetail) };
      },
    }),
    batchLookupRoute({
      path: '/nft/exchange/trades/batch',
      byIdPath: '/nft/exchange/trades/{id}',
      operationId: 'batchGetTrades',
      summary: 'Get trades by their transaction ids, each with its auction and accepted bid',
      description: RAW_TRADE_ONLY,
      tags: TAGS,
      item: tradeDetailOrTransaction,
      find: (ids) => repository.findByIdsWithParties(ids),
      present: (trade, query) => presentRecord(trade, query.transform, presentTradeDetail),
    }),
    defineRoute({
      method: 'post',
      path: '/nft/exchange/trades/search',
      operationId: 'searchTrades',
      summary: 'Search completed trades',
      description: 'Members combine with AND.',
      tags: TAGS,
      ...pagedListShape(tradesList, tradeOrTransaction),
      body: tradeSearchBody,
      async handler({ query, body, location }) {
        const page = await repository.search(body, query);
        return pagedEnvelope(location, tradesList, query, page, presentRecords(page.items, query.transform, presentTrade));
      },
    }),
  ];
}
