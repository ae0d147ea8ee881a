import { recordByIdRoute, recordListRoute } from '@ledger-api/nft-model';
import type { Store } from '@ledger-api/store';
import { presentCanceledBid } from './presenter';
import { canceledBidsList } from './query-config';
import { canceledBidsRepository } from './repository';
import { canceledBidResource } from './schema';

const TAGS = ['Exchange bids'];

/** Registered before the bid by-id routes, which would otherwise take `canceled` for an id. */
export function canceledBidRoutes(store: Store) {
  const repository = canceledBidsRepository(store);
  const shape = { tags: TAGS, resource: canceledBidResource, present: presentCanceledBid };
  return [
    recordListRoute({
      ...shape,
      path: '/nft/exchange/bids/canceled',
      summary: 'List bid cancellations',
      config: canceledBidsList,
      page: repository.list,
    }),
    recordByIdRoute({
      ...shape,
      path: '/nft/exchange/bids/canceled/:id',
      summary: 'Get a bid cancellation by its transaction id',
      notFoundMessage: 'Canceled bid not found',
      find: repository.findById,
    }),
  ];
}
