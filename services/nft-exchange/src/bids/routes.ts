import { recordByIdRoute, recordListRoute, recordSearchRoute } from '@ledger-api/nft-model';
import type { Store } from '@ledger-api/store';
import { exchangeWalletRoute } from '../wallets/route';
import { presentBid } from './presenter';
import { bidsList } from './query-config';
import { bidsRepository } from './repository';
import { bidResource, bidSearchBody } from './schema';

const TAGS = ['Exchange bids'];

export function bidRoutes(store: Store) {
  const repository = bidsRepository(store);
  const shape = { tags: TAGS, resource: bidResource, present: presentBid };
  return [
    recordListRoute({
      ...shape,
      path: '/nft/exchange/bids',
      summary: 'List bids',
      description: 'Bids in every state (active, canceled, ended), in ledger order unless orderBy says otherwise.',
      config: bidsList,
      page: repository.list,
    }),
    recordByIdRoute({
      ...shape,
      path: '/nft/exchange/bids/:id',
      summary: 'Get a bid by its transaction id',
      notFoundMessage: 'Bid not found',
      find: repository.findById,
    }),
    exchangeWalletRoute(store, {
      path: '/nft/exchange/bids/:id/wallets',
      summary: 'Get the wallet of the bidder',
      description: 'Any bid resolves to its bidder, whatever its state.',
      tags: TAGS,
      notFoundMessage: 'Bid not found',
      addressOf: async (id) => (await repository.findById(id))?.bidderAddress ?? null,
    }),
    recordSearchRoute({
      ...shape,
      path: '/nft/exchange/bids/search',
      summary: 'Search bids',
      description: 'Members combine with AND; bidAmount compares by value. Bids in every state are searched.',
      config: bidsList,
      body: bidSearchBody,
      search: repository.search,
    }),
  ];
}
