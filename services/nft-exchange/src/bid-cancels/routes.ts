import { defineRoute, notFound, pagedEnvelope, pagedListShape, transactionByIdShape } from '@ledger-api/http';
import { presentRecord, presentRecords, resourceOrTransaction } from '@ledger-api/nft-read-model';
import type { Store } from '@ledger-api/store';
import { presentCanceledBid } from './presenter';
import { canceledBidsList } from './query-config';
import { canceledBidsRepository } from './repository';
import { canceledBidResource } from './schema';

const TAGS = ['Exchange bids'];
const canceledBidOrTransaction = resourceOrTransaction(canceledBidResource);

/** Registered before the bid by-id routes, which would otherwise take `canceled` for an id. */
export function canceledBidRoutes(store: Store) {
  const repository = canceledBidsRepository(store);
  return [
    defineRoute({
      method: 'get',
      path: '/nft/exchange/bids/canceled',
      operationId: 'listCanceledBids',
      summary: 'List bid cancellations',
      tags: TAGS,
      ...pagedListShape(canceledBidsList, canceledBidOrTransaction),
      async handler({ query, location }) {
        const page = await repository.list(query);
        const data = presentRecords(page.items, query.transform, presentCanceledBid);
        return pagedEnvelope(location, canceledBidsList, query, page, data);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/nft/exchange/bids/canceled/:id',
      operationId: 'getCanceledBid',
      summary: 'Get a bid cancellation by its transaction id',
      tags: TAGS,
      ...transactionByIdShape(canceledBidOrTransaction),
      async handler({ params, query }) {
        const cancel = await repository.findById(params.id);
        if (!cancel) throw notFound('Canceled bid not found');
        return { data: presentRecord(cancel, query.transform, presentCanceledBid) };
      },
    }),
  ];
}
