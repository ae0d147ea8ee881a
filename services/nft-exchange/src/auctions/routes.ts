import { defineRoute, listQuerySchema, pagedEnvelope, pagedResponse } from '@ledger-api/http';
import type { LedgerPosition } from '@ledger-api/ledger';
import { presentRecord, recordByIdRoute, recordListRoute } from '@ledger-api/nft-model';
import type { Store } from '@ledger-api/store';
import { exchangeWalletRoute } from '../wallets/route';
import { presentAuction, presentAuctionDetail } from './presenter';
import { auctionsList, auctionsSearch } from './query-config';
import { auctionsRepository } from './repository';
import { auctionDetailResource, auctionOrTransaction, auctionResource, auctionSearchBody } from './schema';

const TAGS = ['Exchange auctions'];

export function auctionRoutes(store: Store, ledgerPosition: () => Promise<LedgerPosition>) {
  const repository = auctionsRepository(store, ledgerPosition);
  return [
    recordListRoute({
      path: '/nft/exchange/auctions',
      summary: 'List active auctions',
      description: 'Auctions neither canceled nor traded, expired or not unless `expired` narrows them.',
      tags: TAGS,
      resource: auctionResource,
      present: (doc) => presentAuction(doc),
      config: auctionsList,
      page: repository.listActive,
    }),
    recordByIdRoute({
      path: '/nft/exchange/auctions/:id',
      summary: 'Get an auction by its transaction id',
      description: 'Any auction, whatever its state.',
      tags: TAGS,
      resource: auctionDetailResource,
      present: presentAuctionDetail,
      notFoundMessage: 'Auction not found',
      find: repository.findById,
    }),
    exchangeWalletRoute(store, {
      path: '/nft/exchange/auctions/:id/wallets',
      summary: 'Get the wallet of the seller',
      description: 'Any auction resolves to its seller, whatever its state.',
      tags: TAGS,
      notFoundMessage: 'Auction not found',
      addressOf: async (id) => (await repository.findById(id))?.sellerAddress ?? null,
    }),
    defineRoute({
      method: 'post',
      path: '/nft/exchange/auctions/search',
      summary: 'Search auctions',
      description: 'Members combine with AND; startAmount compares by value. Auctions in every state are searched unless onlyActive.',
      tags: TAGS,
      query: listQuerySchema(auctionsSearch),
      body: auctionSearchBody,
      response: pagedResponse(auctionOrTransaction),
      async handler({ query, body, location }) {
        const { items, totalCount } = await repository.search(body, query);
        // Bids belong to the resource shape only; the raw transactions carry nothing derived.
        const bids = query.includeBids && query.transform ? await repository.bidsOf(items, query.canceledBids) : undefined;
        const data = items.map((doc) => presentRecord(doc, query.transform, (auction) => presentAuction(auction, bids?.get(auction._id))));
        return pagedEnvelope(location, auctionsSearch, query, data, totalCount);
      },
    }),
  ];
}
