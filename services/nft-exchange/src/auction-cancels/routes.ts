import { defineRoute, notFound, pagedEnvelope, pagedListShape, transactionByIdShape } from '@ledger-api/http';
import { presentRecord, presentRecords, resourceOrTransaction } from '@ledger-api/nft-read-model';
import type { Store } from '@ledger-api/store';
import { presentCanceledAuction } from './presenter';
import { canceledAuctionsList } from './query-config';
import { canceledAuctionsRepository } from './repository';
import { canceledAuctionResource } from './schema';

const TAGS = ['Exchange auctions'];
const canceledAuctionOrTransaction = resourceOrTransaction(canceledAuctionResource);

/** Registered before the auction by-id routes, which would otherwise take `canceled` for an id. */
export function canceledAuctionRoutes(store: Store) {
  const repository = canceledAuctionsRepository(store);
  return [
    defineRoute({
      method: 'get',
      path: '/nft/exchange/auctions/canceled',
      operationId: 'listCanceledAuctions',
      summary: 'List auction cancellations',
      tags: TAGS,
      ...pagedListShape(canceledAuctionsList, canceledAuctionOrTransaction),
      async handler({ query, location }) {
        const page = await repository.list(query);
        const data = presentRecords(page.items, query.transform, presentCanceledAuction);
        return pagedEnvelope(location, canceledAuctionsList, query, page, data);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/nft/exchange/auctions/canceled/:id',
      operationId: 'getCanceledAuction',
      summary: 'Get an auction cancellation by its transaction id',
      tags: TAGS,
      ...transactionByIdShape(canceledAuctionOrTransaction),
      async handler({ params, query }) {
        const cancel = await repository.findById(params.id);
        if (!cancel) throw notFound('Canceled auction not found');
        return { data: presentRecord(cancel, query.transform, presentCanceledAuction) };
      },
    }),
  ];
}
