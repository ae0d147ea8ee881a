import { addressFromPublicKey, type ProjectionContext, type Transaction } from '@ledger-api/ledger';
import { numericSortKey, type CollectionSpec } from '@ledger-api/store';
import {
  ledgerRecord,
  ledgerRecordIndexes,
  NFT_EXCHANGE_TYPE_GROUP,
  NftExchangeType,
  STORE_COLLECTIONS,
  type LedgerRecord,
  type NftProjectionPartFactory,
} from '../records';
import type { AuctionCancelDoc, AuctionDoc, BidCancelDoc, BidDoc, TradeDoc } from './documents';

const { auctions: AUCTIONS, auctionCancels: AUCTION_CANCELS, bids: BIDS, bidCancels: BID_CANCELS, trades: TRADES } = STORE_COLLECTIONS;

export const EXCHANGE_COLLECTIONS: CollectionSpec[] = [
  { name: AUCTIONS, indexes: ledgerRecordIndexes(['sortKeys.startAmount', 'expirationHeight', 'status', 'nftIds', 'sellerAddress']) },
  { name: AUCTION_CANCELS, indexes: ledgerRecordIndexes(['auctionId']) },
  { name: BIDS, indexes: ledgerRecordIndexes(['sortKeys.bidAmount', 'auctionId', 'status', 'bidderAddress']) },
  { name: BID_CANCELS, indexes: ledgerRecordIndexes(['bidId']) },
  { name: TRADES, indexes: ledgerRecordIndexes(['auctionId', 'bidId']) },
];

/** What one exchange transaction handler needs besides its asset. */
interface ExchangeStep {
  ctx: ProjectionContext;
  record: LedgerRecord;
  networkVersion: number;
}

type AssetHandler = (step: ExchangeStep, asset: Record<string, any>) => Promise<void>;

async function placeAuction({ ctx, record, networkVersion }: ExchangeStep, asset: Record<string, any>): Promise<void> {
  const startAmount = String(asset.startAmount);
  ctx.put(AUCTIONS, {
    ...record,
    sortKeys: { ...record.sortKeys, startAmount: numericSortKey(startAmount) },
    // The ledger validated the asset; a malformed one still must not stop the projector.
    nftIds: Array.isArray(asset.nftIds) ? asset.nftIds.map(String) : [],
    startAmount,
    expirationHeight: Number(asset.expiration?.blockHeight),
    sellerAddress: addressFromPublicKey(record.senderPublicKey, networkVersion),
    status: 'active',
    bidIds: [],
  } satisfies AuctionDoc);
}

/** An auction closes once, by a cancel or a trade; every bid still active on it ends with it. */
async function closeAuction(ctx: ProjectionContext, auctionId: string, status: 'canceled' | 'traded'): Promise<void> {
  const auction = await ctx.get<AuctionDoc>(AUCTIONS, auctionId);
  if (!auction) return;
  ctx.put(AUCTIONS, { ...auction, status });
  for (const bidId of auction.bidIds) {
    const bid = await ctx.get<BidDoc>(BIDS, bidId);
    if (bid?.status === 'active') ctx.put(BIDS, { ...bid, status: 'ended' });
  }
}

async function cancelAuction({ ctx, record }: ExchangeStep, asset: Record<string, any>): Promise<void> {
  const auctionId = String(asset.auctionId);
  ctx.put(AUCTION_CANCELS, { ...record, auctionId } satisfies AuctionCancelDoc);
  await closeAuction(ctx, auctionId, 'canceled');
}

async function placeBid({ ctx, record, networkVersion }: ExchangeStep, asset: Record<string, any>): Promise<void> {
  const auctionId = String(asset.auctionId);
  const bidAmount = String(asset.bidAmount);
  const auction = await ctx.get<AuctionDoc>(AUCTIONS, auctionId);
  ctx.put(BIDS, {
    ...record,
    sortKeys: { ...record.sortKeys, bidAmount: numericSortKey(bidAmount) },
    auctionId,
    bidAmount,
    bidderAddress: addressFromPublicKey(record.senderPublicKey, networkVersion),
    // A bid is only ever active on an active auction.
    status: auction?.status === 'active' ? 'active' : 'ended',
  } satisfies BidDoc);
  if (auction) ctx.put(AUCTIONS, { ...auction, bidIds: [...auction.bidIds, record._id] });
}

async function cancelBid({ ctx, record }: ExchangeStep, asset: Record<string, any>): Promise<void> {
  const bidId = String(asset.bidId);
  ctx.put(BID_CANCELS, { ...record, bidId } satisfies BidCancelDoc);
  const bid = await ctx.get<BidDoc>(BIDS, bidId);
  if (bid) ctx.put(BIDS, { ...bid, status: 'canceled' });
}

async function acceptTrade({ ctx, record }: ExchangeStep, asset: Record<string, any>): Promise<void> {
  const auctionId = String(asset.auctionId);
  ctx.put(TRADES, { ...record, auctionId, bidId: String(asset.bidId) } satisfies TradeDoc);
  await closeAuction(ctx, auctionId, 'traded');
}

/** Exchange transaction type -> the asset member it carries and its handler. */
const HANDLERS: Record<number, [assetMember: string, handler: AssetHandler]> = {
  [NftExchangeType.auction]: ['nftAuction', placeAuction],
  [NftExchangeType.auctionCancel]: ['nftAuctionCancel', cancelAuction],
  [NftExchangeType.bid]: ['nftBid', placeBid],
  [NftExchangeType.bidCancel]: ['nftBidCancel', cancelBid],
  [NftExchangeType.acceptTrade]: ['nftAcceptTrade', acceptTrade],
};

/**
 * The exchange step of the NFT projection: auctions, bids, their cancels and
 * trades, and the states they move each other through. It runs before the
 * base step, which reads the auction and bid of a trade to move ownership.
 */
export const createExchangePart: NftProjectionPartFactory = ({ networkVersion }) => ({
  collections: EXCHANGE_COLLECTIONS,
  async applyTransaction(ctx: ProjectionContext, tx: Transaction, sequence: number) {
    if (tx.typeGroup !== NFT_EXCHANGE_TYPE_GROUP || !Object.hasOwn(HANDLERS, tx.type)) return;
    const [assetMember, handler] = HANDLERS[tx.type];
    const asset = tx.asset?.[assetMember];
    if (!asset) return;
    await handler({ ctx, record: ledgerRecord(ctx.block, tx, sequence), networkVersion }, asset);
  },
});
