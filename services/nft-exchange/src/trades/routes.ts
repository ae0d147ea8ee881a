import { recordRoutes } from '@ledger-api/http';
import { LEDGER_RECORD_LIST, recordPresenter, resourceOrTransaction } from '@ledger-api/nft-read-model';
import type { Store } from '@ledger-api/store';
import { presentTrade, presentTradeDetail } from './presenter';
import { tradesRepository } from './repository';
import { tradeDetailResource, tradeResource, tradeSearchBody } from './schema';

const RAW_TRADE_ONLY = 'With transform=false: the raw trade transaction only.';

export function tradeRoutes(store: Store) {
  const { list, byId, batch, search } = recordRoutes({
    path: '/nft/exchange/trades',
    tags: ['Exchange trades'],
    list: LEDGER_RECORD_LIST,
    item: resourceOrTransaction(tradeResource),
    detail: resourceOrTransaction(tradeDetailResource),
    repository: tradesRepository(store),
    present: recordPresenter(presentTrade),
    presentDetail: recordPresenter(presentTradeDetail),
    operations: {
      list: { operationId: 'listTrades', summary: 'List completed trades' },
      byId: {
        operationId: 'getTrade',
        summary: 'Get a trade by its transaction id, with its auction and accepted bid',
        description: RAW_TRADE_ONLY,
        notFound: 'Trade not found',
      },
      batch: {
        operationId: 'batchGetTrades',
        summary: 'Get trades by their transaction ids, each with its auction and accepted bid',
        description: RAW_TRADE_ONLY,
      },
      search: { operationId: 'searchTrades', summary: 'Search completed trades', description: 'Members combine with AND.', body: tradeSearchBody },
    },
  });
  return [list, byId, batch, search];
}
