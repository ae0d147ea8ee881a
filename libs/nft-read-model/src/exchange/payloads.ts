import { z } from 'zod';
import { decimal, nftTransactionWith, transactionId } from '../base/payloads';

// NFT exchange transaction payloads (docs/ledger-events.md section 3).

export const auctionTransaction = nftTransactionWith(
  'nftAuction',
  z.object({ nftIds: z.array(transactionId()), startAmount: decimal, expiration: z.object({ blockHeight: z.number().int() }) }),
);

export const auctionCancelTransaction = nftTransactionWith('nftAuctionCancel', z.object({ auctionId: transactionId() }));

export const bidTransaction = nftTransactionWith('nftBid', z.object({ auctionId: transactionId(), bidAmount: decimal }));

export const bidCancelTransaction = nftTransactionWith('nftBidCancel', z.object({ bidId: transactionId() }));

export const acceptTradeTransaction = nftTransactionWith('nftAcceptTrade', z.object({ auctionId: transactionId(), bidId: transactionId() }));
