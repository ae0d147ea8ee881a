import { recordByIdRoute, recordListRoute } from '@ledger-api/nft-model';
import type { Store } from '@ledger-api/store';
import { presentCanceledAuction } from './presenter';
import { canceledAuctionsList } from './query-config';
import { canceledAuctionsRepository } from './repository';
import { canceledAuctionResource } from './schema';

const TAGS = ['Exchange auctions'];

/** Registered before the auction by-id routes, which would otherwise take `canceled` for an id. */
export function canceledAuctionRoutes(store: Store) {
  const repository = canceledAuctionsRepository(store);
  const shape = { tags: TAGS, resource: canceledAuctionResource, present: presentCanceledAuction };
  return [
    recordListRoute({
      ...shape,
      path: '/nft/exchange/auctions/canceled',
      summary: 'List auction cancellations',
      config: canceledAuctionsList,
      page: repository.list,
    }),
    recordByIdRoute({
      ...shape,
      path: '/nft/exchange/auctions/canceled/:id',
      summary: 'Get an auction cancellation by its transaction id',
      notFoundMessage: 'Canceled auction not found',
      find: repository.findById,
    }),
  ];
}
