import type { PagingQuery } from '@ledger-api/http';
import type { LedgerPosition } from '@ledger-api/ledger';
import { recordCollection, STORE_COLLECTIONS, type AuctionDoc, type BidDoc, type BidStatus } from '@ledger-api/nft-model';
import { allOf, type Filter, type Store } from '@ledger-api/store';
import { bidsRepository } from '../bids/repository';
import { amountEquals } from '../shared/search';
import { auctionsList } from './query-config';
import type { AuctionSearch } from './schema';

export interface AuctionsQuery extends PagingQuery {
  expired?: boolean;
}

export interface AuctionSearchQuery extends AuctionsQuery {
  onlyActive: boolean;
}

const ACTIVE: Filter = { status: { $eq: 'active' } };

/** An auction has expired once the last applied block reached its expiration height; it stays active all the same. */
function expiryConditions(expired: boolean | undefined, height: number): Filter[] {
  if (expired === undefined) return [];
  return [{ expirationHeight: expired ? { $lte: height } : { $gt: height } }];
}

function searchConditions(search: AuctionSearch): Filter[] {
  const conditions: Filter[] = [];
  if (search.senderPublicKey !== undefined) conditions.push({ senderPublicKey: { $eq: search.senderPublicKey } });
  const nftIds = [...(search.nftId === undefined ? [] : [search.nftId]), ...(search.nftIds ?? [])];
  if (nftIds.length > 0) conditions.push({ nftIds: { $all: nftIds } });
  if (search.startAmount !== undefined) conditions.push({ 'sortKeys.startAmount': amountEquals(search.startAmount) });
  for (const height of [search['expiration.blockHeight'], search.expiration?.blockHeight]) {
    if (height !== undefined) conditions.push({ expirationHeight: { $eq: height } });
  }
  return conditions;
}

export function auctionsRepository(store: Store, ledgerPosition: () => Promise<LedgerPosition>) {
  // Both auction lists share the orderable fields and default order of auctionsList.
  const auctions = recordCollection<AuctionDoc>(store, STORE_COLLECTIONS.auctions, auctionsList);
  const bids = bidsRepository(store);
  const currentHeight = async () => (await ledgerPosition()).height;
  return {
    findById: auctions.findById,
    async listActive(query: AuctionsQuery) {
      const filter = allOf([ACTIVE, ...expiryConditions(query.expired, await currentHeight())]);
      return auctions.page(filter, query);
    },
    async search(search: AuctionSearch, query: AuctionSearchQuery) {
      const expiry = expiryConditions(query.expired, await currentHeight());
      const filter = allOf([...searchConditions(search), ...(query.onlyActive ? [ACTIVE] : []), ...expiry]);
      return auctions.page(filter, query);
    },
    /** The bids of each auction in ledger order: the active ones, or with `everyState` all of them. */
    bidsOf(page: AuctionDoc[], everyState: boolean): Promise<Map<string, BidDoc[]>> {
      const statuses: BidStatus[] = everyState ? ['active', 'canceled', 'ended'] : ['active'];
      return bids.ofAuctions(page.map((auction) => auction._id), statuses);
    },
  };
}
