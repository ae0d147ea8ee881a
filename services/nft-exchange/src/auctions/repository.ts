import { STORE_COLLECTIONS, type AuctionDoc, type BidDoc, type BidStatus } from '@ledger-api/nft-read-model';
import { allOf, findByIds, findPage, type Filter, type Page, type PageRequest, type Store } from '@ledger-api/store';
import { bidsByAuctionReader } from '../bids/bids-by-auction';
import { amountEquals } from '../shared/amounts';
import { exchangeWalletReader } from '../wallets/exchange-wallet';
import { auctionsList, auctionsSearch } from './query-config';
import type { AuctionSearch } from './schema';

export interface AuctionsQuery extends PageRequest {
  expired?: boolean;
}

export interface AuctionSearchQuery extends AuctionsQuery {
  onlyActive: boolean;
  /** Attach each auction's bids: the active ones, or with canceledBids those in every state. */
  includeBids: boolean;
  canceledBids: boolean;
}

/** An auction with its bids in ledger order, when a search asked for them. */
export interface AuctionWithBids extends AuctionDoc {
  bids?: BidDoc[];
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

/** Auctions expire by `height`, the ledger height the answer is read at. */
export function auctionsRepository(store: Store) {
  const auctions = store.collection<AuctionDoc>(STORE_COLLECTIONS.auctions);
  const bidsByAuction = bidsByAuctionReader(store);
  const exchangeWallet = exchangeWalletReader(store);

  function bidsOf(page: AuctionDoc[], canceledBids: boolean): Promise<Map<string, BidDoc[]>> {
    const statuses: BidStatus[] = canceledBids ? ['active', 'canceled', 'ended'] : ['active'];
    return bidsByAuction(
      page.map((auction) => auction._id),
      statuses,
    );
  }

  return {
    findById: (id: string) => auctions.findById(id),
    /** The auctions of the ids that exist, whatever their state, by id, in one query. */
    findByIds: (ids: string[]) => findByIds(auctions, ids),
    /** The active auctions, narrowed by expiry at `height`. */
    list(query: AuctionsQuery, height: number) {
      const filter = allOf([ACTIVE, ...expiryConditions(query.expired, height)]);
      return findPage(auctions, filter, query, auctionsList);
    },
    async search(search: AuctionSearch, query: AuctionSearchQuery, height: number): Promise<Page<AuctionWithBids>> {
      const expiry = expiryConditions(query.expired, height);
      const filter = allOf([...searchConditions(search), ...(query.onlyActive ? [ACTIVE] : []), ...expiry]);
      const page = await findPage(auctions, filter, query, auctionsSearch);
      if (!query.includeBids) return page;
      const pageBids = await bidsOf(page.items, query.canceledBids);
      return { ...page, items: page.items.map((auction) => ({ ...auction, bids: pageBids.get(auction._id) })) };
    },
    /** The exchange-form wallet of the seller, whatever the auction's state; null for an unknown auction. */
    async sellerWallet(id: string) {
      const auction = await auctions.findById(id);
      return auction && exchangeWallet(auction.sellerAddress);
    },
  };
}
