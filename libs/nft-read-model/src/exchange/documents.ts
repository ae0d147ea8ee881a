import type { LedgerRecord } from '../records';

export type AuctionStatus = 'active' | 'canceled' | 'traded';
export type BidStatus = 'active' | 'canceled' | 'ended';

/** An `nftAuction` transaction and where it stands. */
export interface AuctionDoc extends LedgerRecord {
  nftIds: string[];
  startAmount: string;
  expirationHeight: number;
  /** The seller: the sender's address. */
  sellerAddress: string;
  status: AuctionStatus;
  /** Every bid placed on the auction, in ledger order: what a cancel or trade walks to end them. */
  bidIds: string[];
}

/** An `nftBid` transaction and where it stands. */
export interface BidDoc extends LedgerRecord {
  auctionId: string;
  bidAmount: string;
  bidderAddress: string;
  status: BidStatus;
}

/**
 * What an area that does not list the exchange keeps of an auction or a bid:
 * the members its own reads and the exchange step's read. The rest (the
 * transaction, its sort keys) is never read there.
 */
export const EXCHANGE_LOOKUP_MEMBERS = {
  auctions: ['status', 'sellerAddress', 'expirationHeight', 'nftIds', 'bidIds'],
  bids: ['status', 'bidderAddress'],
} as const satisfies { auctions: readonly (keyof AuctionDoc)[]; bids: readonly (keyof BidDoc)[] };

export type AuctionLookup = Pick<AuctionDoc, '_id' | (typeof EXCHANGE_LOOKUP_MEMBERS.auctions)[number]>;
export type BidLookup = Pick<BidDoc, '_id' | (typeof EXCHANGE_LOOKUP_MEMBERS.bids)[number]>;

export interface AuctionCancelDoc extends LedgerRecord {
  auctionId: string;
}

export interface BidCancelDoc extends LedgerRecord {
  bidId: string;
}

export interface TradeDoc extends LedgerRecord {
  auctionId: string;
  bidId: string;
}
