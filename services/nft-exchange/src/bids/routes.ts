import { batchLookupRoute, defineRoute, notFound, pagedEnvelope, pagedListShape, transactionByIdShape, transactionIdParams } from '@ledger-api/http';
import { presentRecord, presentRecords, resourceOrTransaction } from '@ledger-api/nft-read-model';
import type { Store } from '@ledger-api/store';
import { z } from 'zod';
import { exchangeWalletResource } from '../wallets/schema';
import { presentBid } from './presenter';
import { bidsList } from './query-config';
import { bidsRepository } from './repository';
import { bidResource, bidSearchBody } from './schema';

const TAGS = ['Exchange bids'];
const bidOrTransaction = resourceOrTransaction(bidResource);

export function bidRoutes(store: Store) {
  const repository = bidsRepository(store);
  return [
    defineRoute({
      method: 'get',
      path: '/nft/exchange/bids',
      operationId: 'listBids',
      summary: 'List bids',
      description: 'Bids in every state (active, canceled, ended), in ledger order unless orderBy says otherwise.',
      tags: TAGS,
      ...pagedListShape(bidsList, bidOrTransaction),
      async handler({ query, location }) {
        const page = await repository.list(query);
        return pagedEnvelope(location, bidsList, query, page, presentRecords(page.items, query.transform, presentBid));
      },
    }),
    defineRoute({
      method: 'get',
      path: '/nft/exchange/bids/:id',
      operationId: 'getBid',
      summary: 'Get a bid by its transaction id',
      tags: TAGS,
      ...transactionByIdShape(bidOrTransaction),
      async handler({ params, query }) {
        const bid = await repository.findById(params.id);
        if (!bid) throw notFound('Bid not found');
        return { data: presentRecord(bid, query.transform, presentBid) };
      },
    }),
    batchLookupRoute({
      path: '/nft/exchange/bids/batch',
      byIdPath: '/nft/exchange/bids/{id}',
      operationId: 'batchGetBids',
      summary: 'Get bids by their transaction ids',
      tags: TAGS,
      item: bidOrTransaction,
      find: (ids) => repository.findByIds(ids),
      present: (bid, query) => presentRecord(bid, query.transform, presentBid),
    }),
    defineRoute({
      method: 'get',
      path: '/nft/exchange/bids/:id/wallets',
      operationId: 'getBidWallet',
      summary: 'Get the wallet of the bidder',
      description: 'Any bid resolves to its bidder, whatever its state.',
      tags: TAGS,
      params: transactionIdParams,
      response: z.object({ data: exchangeWalletResource }),
      errors: [404],
      async handler({ params }) {
        const wallet = await repository.bidderWallet(params.id);
        if (!wallet) throw notFound('Bid not found');
        return { data: wallet };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/nft/exchange/bids/search',
      operationId: 'searchBids',
      summary: 'Search bids',
      description: 'Members combine with AND; bidAmount compares by value. Bids in every state are searched.',
      tags: TAGS,
      ...pagedListShape(bidsList, bidOrTransaction),
      body: bidSearchBody,
      async handler({ query, body, location }) {
        const page = await repository.search(body, query);
        return pagedEnvelope(location, bidsList, query, page, presentRecords(page.items, query.transform, presentBid));
      },
    }),
  ];
}
