import { recordRoutes } from '@ledger-api/http';
import { LEDGER_RECORD_LIST, recordPresenter, resourceOrTransaction } from '@ledger-api/nft-read-model';
import type { Store } from '@ledger-api/store';
import { presentCanceledAuction } from './presenter';
import { canceledAuctionsRepository } from './repository';
import { canceledAuctionResource } from './schema';

/** Registered before the auction by-id routes, which would otherwise take `canceled` for an id. */
export function canceledAuctionRoutes(store: Store) {
  const { list, byId } = recordRoutes({
    path: '/nft/exchange/auctions/canceled',
    tags: ['Exchange auctions'],
    list: LEDGER_RECORD_LIST,
    item: resourceOrTransaction(canceledAuctionResource),
    repository: canceledAuctionsRepository(store),
    present: recordPresenter(presentCanceledAuction),
    operations: {
      list: { operationId: 'listCanceledAuctions', summary: 'List auction cancellations' },
      byId: {
        operationId: 'getCanceledAuction',
        summary: 'Get an auction cancellation by its transaction id',
        notFound: 'Canceled auction not found',
      },
    },
  });
  return [list, byId];
}
