import { recordRoutes, subresourceRoute } from '@ledger-api/http';
import { recordPresenter, resourceOrTransaction } from '@ledger-api/nft-read-model';
import type { Store } from '@ledger-api/store';
import { exchangeWalletResource } from '../wallets/schema';
import { presentBid } from './presenter';
import { bidsList } from './query-config';
import { bidsRepository } from './repository';
import { bidResource, bidSearchBody } from './schema';

const TAGS = ['Exchange bids'];

export function bidRoutes(store: Store) {
  const repository = bidsRepository(store);
  const { list, byId, batch, search } = recordRoutes({
    path: '/nft/exchange/bids',
    tags: TAGS,
    list: bidsList,
    item: resourceOrTransaction(bidResource),
    repository,
    present: recordPresenter(presentBid),
    operations: {
      list: {
        operationId: 'listBids',
        summary: 'List bids',
        description: 'Bids in every state (active, canceled, ended), in ledger order unless orderBy says otherwise.',
      },
      byId: { operationId: 'getBid', summary: 'Get a bid by its transaction id', notFound: 'Bid not found' },
      batch: { operationId: 'batchGetBids', summary: 'Get bids by their transaction ids' },
      search: {
        operationId: 'searchBids',
        summary: 'Search bids',
        description: 'Members combine with AND; bidAmount compares by value. Bids in every state are searched.',
        body: bidSearchBody,
      },
    },
  });
  return [list, byId, batch, bidderWalletRoute(repository), search];
}

function bidderWalletRoute(repository: ReturnType<typeof bidsRepository>) {
  return subresourceRoute({
    path: '/nft/exchange/bids/:id/wallets',
    operationId: 'getBidWallet',
    summary: 'Get the wallet of the bidder',
    description: 'Any bid resolves to its bidder, whatever its state.',
    tags: TAGS,
    data: exchangeWalletResource,
    find: (id) => repository.bidderWallet(id),
    notFound: 'Bid not found',
  });
}
