import { recordRoutes } from '@ledger-api/http';
import { LEDGER_RECORD_LIST, recordPresenter, resourceOrTransaction } from '@ledger-api/nft-read-model';
import type { Store } from '@ledger-api/store';
import { presentCanceledBid } from './presenter';
import { canceledBidsRepository } from './repository';
import { canceledBidResource } from './schema';

/** Registered before the bid by-id routes, which would otherwise take `canceled` for an id. */
export function canceledBidRoutes(store: Store) {
  const { list, byId } = recordRoutes({
    path: '/nft/exchange/bids/canceled',
    tags: ['Exchange bids'],
    list: LEDGER_RECORD_LIST,
    item: resourceOrTransaction(canceledBidResource),
    repository: canceledBidsRepository(store),
    present: recordPresenter(presentCanceledBid),
    operations: {
      list: { operationId: 'listCanceledBids', summary: 'List bid cancellations' },
      byId: { operationId: 'getCanceledBid', summary: 'Get a bid cancellation by its transaction id', notFound: 'Canceled bid not found' },
    },
  });
  return [list, byId];
}
