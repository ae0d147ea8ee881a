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
