import { pagedRecordsRoute, recordRoutes, subresourceRoute } from '@ledger-api/http';
import { recordPresenter, resourceOrTransaction } from '@ledger-api/nft-read-model';
import type { Store } from '@ledger-api/store';
import { exchangeWalletResource } from '../wallets/schema';
import { presentAuction, presentAuctionDetail } from './presenter';
import { auctionsList, auctionsSearch } from './query-config';
import { auctionsRepository } from './repository';
import { auctionDetailResource, auctionOrTransaction, auctionSearchBody } from './schema';

const TAGS = ['Exchange auctions'];
const AUCTION_NOT_FOUND = 'Auction not found';
const ANY_STATE = 'Any auction, whatever its state.';
const presentAuctionRecord = recordPresenter(presentAuction);

type AuctionsRepository = ReturnType<typeof auctionsRepository>;

export function auctionRoutes(store: Store) {
  const repository = auctionsRepository(store);
  const { list, byId, batch } = recordRoutes({
    path: '/nft/exchange/auctions',
    tags: TAGS,
    list: auctionsList,
    item: auctionOrTransaction,
    detail: resourceOrTransaction(auctionDetailResource),
    repository,
    present: presentAuctionRecord,
    presentDetail: recordPresenter(presentAuctionDetail),
    operations: {
      list: {
        operationId: 'listAuctions',
        summary: 'List active auctions',
        description: 'Auctions neither canceled nor traded, expired or not unless `expired` narrows them.',
      },
      byId: { operationId: 'getAuction', summary: 'Get an auction by its transaction id', description: ANY_STATE, notFound: AUCTION_NOT_FOUND },
      batch: { operationId: 'batchGetAuctions', summary: 'Get auctions by their transaction ids', description: ANY_STATE },
    },
  });
  return [list, byId, batch, sellerWalletRoute(repository), auctionSearchRoute(repository)];
}

function sellerWalletRoute(repository: AuctionsRepository) {
  return subresourceRoute({
    path: '/nft/exchange/auctions/:id/wallets',
    operationId: 'getAuctionWallet',
    summary: 'Get the wallet of the seller',
    description: 'Any auction resolves to its seller, whatever its state.',
    tags: TAGS,
    data: exchangeWalletResource,
    find: (id) => repository.sellerWallet(id),
    notFound: AUCTION_NOT_FOUND,
  });
}

/** Not the record search: it reads auctions in every state, with flags of its own. */
function auctionSearchRoute(repository: AuctionsRepository) {
  return pagedRecordsRoute({
    method: 'post',
    path: '/nft/exchange/auctions/search',
    operationId: 'searchAuctions',
    summary: 'Search auctions',
    description: 'Members combine with AND; startAmount compares by value. Auctions in every state are searched unless onlyActive.',
    tags: TAGS,
    body: auctionSearchBody,
    list: auctionsSearch,
    item: auctionOrTransaction,
    // Bids belong to the resource shape only; the raw transactions carry nothing derived.
    read: ({ body, query, height }) => repository.search(body, { ...query, includeBids: query.includeBids && query.transform }, height),
    present: presentAuctionRecord,
  });
}
