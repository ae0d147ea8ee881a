import { LEDGER_ORDER, STORE_COLLECTIONS, type BidDoc, type BidStatus } from '@ledger-api/nft-read-model';
import type { Store } from '@ledger-api/store';

/** The bids in the given states on each of the auctions, in ledger order; every auction asked for has an entry. */
export function bidsByAuctionReader(store: Store) {
  const bids = store.collection<BidDoc>(STORE_COLLECTIONS.bids);
  return async function bidsByAuction(auctionIds: string[], statuses: BidStatus[]): Promise<Map<string, BidDoc[]>> {
    const filter = { auctionId: { $in: auctionIds }, status: { $in: statuses } };
    const found = auctionIds.length === 0 ? [] : await bids.find(filter, { sort: LEDGER_ORDER });
    const byAuction = new Map<string, BidDoc[]>(auctionIds.map((id) => [id, []]));
    for (const bid of found) byAuction.get(bid.auctionId)?.push(bid);
    return byAuction;
  };
}
