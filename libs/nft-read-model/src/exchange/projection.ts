import { parseTransaction, type ProjectionContext, type Transaction, type TransactionSchema } from '@ledger-api/ledger';
import { numericSortKey, type CollectionSpec } from '@ledger-api/store';
import {
  ledgerRecord,
  ledgerRecordCollection,
  ledgerRecordIndexes,
  ledgerSortIndexes,
  NFT_EXCHANGE_TYPE_GROUP,
  NftExchangeType,
  STORE_COLLECTIONS,
  type LedgerRecord,
  type NftProjectionPartFactory,
  writingOnly,
} from '../records';
import type { WalletNames } from '../records/wallet-names';
import type { PayloadOf } from '../base/payloads';
import { EXCHANGE_LOOKUP_MEMBERS, type AuctionCancelDoc, type AuctionDoc, type BidCancelDoc, type BidDoc, type TradeDoc } from './documents';
import { acceptTradeTransaction, auctionCancelTransaction, auctionTransaction, bidCancelTransaction, bidTransaction } from './payloads';

const { auctions: AUCTIONS, auctionCancels: AUCTION_CANCELS, bids: BIDS, bidCancels: BID_CANCELS, trades: TRADES } = STORE_COLLECTIONS;

const AUCTION_ORDERABLE = ['sortKeys.startAmount', 'expirationHeight'];
const BID_ORDERABLE = ['sortKeys.bidAmount'];

export const EXCHANGE_COLLECTIONS: CollectionSpec[] = [
  ledgerRecordCollection(AUCTIONS, [
    ...ledgerRecordIndexes([...AUCTION_ORDERABLE, 'status', 'nftIds', 'sellerAddress']),
    ...ledgerSortIndexes(AUCTION_ORDERABLE),
  ]),
  ledgerRecordCollection(AUCTION_CANCELS, [...ledgerRecordIndexes(['auctionId']), ...ledgerSortIndexes([])]),
  ledgerRecordCollection(BIDS, [
    ...ledgerRecordIndexes([...BID_ORDERABLE, 'auctionId', 'status', 'bidderAddress']),
    ...ledgerSortIndexes(BID_ORDERABLE),
  ]),
  ledgerRecordCollection(BID_CANCELS, [...ledgerRecordIndexes(['bidId']), ...ledgerSortIndexes([])]),
  ledgerRecordCollection(TRADES, [...ledgerRecordIndexes(['auctionId', 'bidId']), ...ledgerSortIndexes([])]),
];

/**
 * What the base area reads of the exchange collections: a seller's active
 * auctions, and the auction and bid of a trade, each as an AuctionLookup or
 * BidLookup. Cancels and trades it never reads.
 */
const EXCHANGE_LOOKUPS: CollectionSpec[] = [
  { name: AUCTIONS, indexes: [{ key: { sellerAddress: 1, status: 1 } }] },
  { name: BIDS, indexes: [] },
];

/** What one exchange transaction handler needs besides its asset. */
interface ExchangeStep {
  ctx: ProjectionContext;
  record: LedgerRecord;
  wallets: WalletNames;
}

/** The handler of one exchange transaction type. */
type TransactionHandler = (ctx: ProjectionContext, tx: Transaction, sequence: number, wallets: WalletNames) => Promise<void>;

/** A handler that reads the transaction with its type's schema first, so it only ever sees a payload of that shape. */
function handling<Payload>(
  schema: TransactionSchema<{ asset: Payload }>,
  handle: (step: ExchangeStep, asset: Payload) => Promise<void>,
): TransactionHandler {
  return async (ctx, tx, sequence, wallets) => {
    const { asset } = parseTransaction(schema, ctx.block, tx, sequence);
    const record = ledgerRecord(ctx.block, tx, sequence, wallets);
    await handle({ ctx, record, wallets }, asset);
  };
}

async function placeAuction({ ctx, record, wallets }: ExchangeStep, { nftAuction }: PayloadOf<typeof auctionTransaction>): Promise<void> {
  const { nftIds, startAmount } = nftAuction;
  ctx.put(AUCTIONS, {
    ...record,
    sortKeys: { ...record.sortKeys, startAmount: numericSortKey(startAmount) },
    nftIds,
    startAmount,
    expirationHeight: nftAuction.expiration.blockHeight,
    sellerAddress: wallets.addressOf(record.senderPublicKey),
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

async function cancelAuction({ ctx, record }: ExchangeStep, { nftAuctionCancel }: PayloadOf<typeof auctionCancelTransaction>): Promise<void> {
  const { auctionId } = nftAuctionCancel;
  ctx.put(AUCTION_CANCELS, { ...record, auctionId } satisfies AuctionCancelDoc);
  await closeAuction(ctx, auctionId, 'canceled');
}

async function placeBid({ ctx, record, wallets }: ExchangeStep, { nftBid }: PayloadOf<typeof bidTransaction>): Promise<void> {
  const { auctionId, bidAmount } = nftBid;
  const auction = await ctx.get<AuctionDoc>(AUCTIONS, auctionId);
  ctx.put(BIDS, {
    ...record,
    sortKeys: { ...record.sortKeys, bidAmount: numericSortKey(bidAmount) },
    auctionId,
    bidAmount,
    bidderAddress: wallets.addressOf(record.senderPublicKey),
    // A bid is only ever active on an active auction.
    status: auction?.status === 'active' ? 'active' : 'ended',
  } satisfies BidDoc);
  if (auction) ctx.put(AUCTIONS, { ...auction, bidIds: [...auction.bidIds, record._id] });
}

async function cancelBid({ ctx, record }: ExchangeStep, { nftBidCancel }: PayloadOf<typeof bidCancelTransaction>): Promise<void> {
  const { bidId } = nftBidCancel;
  ctx.put(BID_CANCELS, { ...record, bidId } satisfies BidCancelDoc);
  const bid = await ctx.get<BidDoc>(BIDS, bidId);
  if (bid) ctx.put(BIDS, { ...bid, status: 'canceled' });
}

async function acceptTrade({ ctx, record }: ExchangeStep, { nftAcceptTrade }: PayloadOf<typeof acceptTradeTransaction>): Promise<void> {
  const { auctionId, bidId } = nftAcceptTrade;
  ctx.put(TRADES, { ...record, auctionId, bidId } satisfies TradeDoc);
  await closeAuction(ctx, auctionId, 'traded');
}

const HANDLERS: Record<number, TransactionHandler> = {
  [NftExchangeType.auction]: handling(auctionTransaction, placeAuction),
  [NftExchangeType.auctionCancel]: handling(auctionCancelTransaction, cancelAuction),
  [NftExchangeType.bid]: handling(bidTransaction, placeBid),
  [NftExchangeType.bidCancel]: handling(bidCancelTransaction, cancelBid),
  [NftExchangeType.acceptTrade]: handling(acceptTradeTransaction, acceptTrade),
};

/** An exchange transaction of a type the exchange step handles. */
function isExchangeTransaction(tx: Transaction): boolean {
  return tx.typeGroup === NFT_EXCHANGE_TYPE_GROUP && Object.hasOwn(HANDLERS, tx.type);
}

/**
 * The exchange step of the NFT projection: auctions, bids, their cancels and
 * trades, and the states they move each other through. It runs before the
 * base step, which reads the auction and bid of a trade to move ownership.
 */
export const createExchangePart: NftProjectionPartFactory = (wallets, listed) => {
  const collections = listed ? EXCHANGE_COLLECTIONS : EXCHANGE_LOOKUPS;
  const context = listed ? (ctx: ProjectionContext) => ctx : writingOnly(collections, EXCHANGE_LOOKUP_MEMBERS);
  return {
    collections,
    projects: (tx) => listed && isExchangeTransaction(tx),
    applyTransaction: (ctx, tx, sequence) => (isExchangeTransaction(tx) ? HANDLERS[tx.type](context(ctx), tx, sequence, wallets) : undefined),
  };
};
