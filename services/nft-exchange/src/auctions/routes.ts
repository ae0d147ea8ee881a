import { batchLookupRoute, defineRoute, notFound, pagedEnvelope, pagedListShape, transactionByIdShape, transactionIdParams } from '@ledger-api/http';
import { presentRecord, presentRecords, resourceOrTransaction } from '@ledger-api/nft-read-model';
import type { Store } from '@ledger-api/store';
import { z } from 'zod';
import { exchangeWalletResource } from '../wallets/schema';
import { presentAuction, presentAuctionDetail } from './presenter';
import { auctionsList, auctionsSearch } from './query-config';
import { auctionsRepository } from './repository';
import { auctionDetailResource, auctionOrTransaction, auctionSearchBody } from './schema';

const TAGS = ['Exchange auctions'];
const AUCTION_NOT_FOUND = 'Auction not found';
/** What GET /nft/exchange/auctions/{id} answers, and a batch lookup for each auction found. */
const auctionDetailOrTransaction = resourceOrTransaction(auctionDetailResource);

export function auctionRoutes(store: Store) {
  const repository = auctionsRepository(store);
  return [
    defineRoute({
      method: 'get',
      path: '/nft/exchange/auctions',
      operationId: 'listAuctions',
      summary: 'List active auctions',
      description: 'Auctions neither canceled nor traded, expired or not unless `expired` narrows them.',
      tags: TAGS,
      ...pagedListShape(auctionsList, auctionOrTransaction),
      async handler({ query, location, height }) {
        const page = await repository.listActive(query, height);
        const data = presentRecords(page.items, query.transform, presentAuction);
        return pagedEnvelope(location, auctionsList, query, page, data);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/nft/exchange/auctions/:id',
      operationId: 'getAuction',
      summary: 'Get an auction by its transaction id',
      description: 'Any auction, whatever its state.',
      tags: TAGS,
      ...transactionByIdShape(auctionDetailOrTransaction),
      async handler({ params, query }) {
        const auction = await repository.findById(params.id);
        if (!auction) throw notFound(AUCTION_NOT_FOUND);
        return { data: presentRecord(auction, query.transform, presentAuctionDetail) };
      },
    }),
    batchLookupRoute({
      path: '/nft/exchange/auctions/batch',
      byIdPath: '/nft/exchange/auctions/{id}',
      operationId: 'batchGetAuctions',
      summary: 'Get auctions by their transaction ids',
      description: 'Any auction, whatever its state.',
      tags: TAGS,
      item: auctionDetailOrTransaction,
      find: (ids) => repository.findByIds(ids),
      present: (auction, query) => presentRecord(auction, query.transform, presentAuctionDetail),
    }),
    defineRoute({
      method: 'get',
      path: '/nft/exchange/auctions/:id/wallets',
      operationId: 'getAuctionWallet',
      summary: 'Get the wallet of the seller',
      description: 'Any auction resolves to its seller, whatever its state.',
      tags: TAGS,
      params: transactionIdParams,
      response: z.object({ data: exchangeWalletResource }),
      errors: [404],
      async handler({ params }) {
        const wallet = await repository.sellerWallet(params.id);
        if (!wallet) throw notFound(AUCTION_NOT_FOUND);
        return { data: wallet };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/nft/exchange/auctions/search',
      operationId: 'searchAuctions',
      summary: 'Search auctions',
      description: 'Members combine with AND; startAmount compares by value. Auctions in every state are searched unless onlyActive.',
      tags: TAGS,
      ...pagedListShape(auctionsSearch, auctionOrTransaction),
      body: auctionSearchBody,
      async handler({ query, body, location, height }) {
        // Bids belong to the resource shape only; the raw transactions carry nothing derived.
        const page = await repository.search(body, { ...query, includeBids: query.includeBids && query.transform }, height);
        const data = presentRecords(page.items, query.transform, presentAuction);
        return pagedEnvelope(location, auctionsSearch, query, page, data);
      },
    }),
  ];
}
