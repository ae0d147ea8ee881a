import type { Transaction } from '@ledger-api/ledger';
import { NFT_AUCTION_SAFETY_DISTANCE, NFT_EXCHANGE_TYPE_GROUP, NftExchangeType } from '@ledger-api/nft-read-model';
import type { DemoAction, DemoContext } from './context';
import type { PickableSet } from './pickable-set';
import { pickOwnerWithFreeAssets, type AuctionState, type BidState } from './world';

/** Relative odds of an auction offering 1, 2 or 3 NFTs. */
const AUCTION_SIZE_WEIGHTS = [70, 20, 10];
const OVERSIZED_AMOUNT_CHANCE = 0.02;
/** 10^-8 units per coin. */
const COIN = 100_000_000n;

export function exchangeActions(): DemoAction[] {
  return [
    { weight: () => 7, run: auction },
    { weight: () => 14, run: bid },
    { weight: () => 2, run: cancelBid },
    { weight: () => 1.5, run: cancelAuction },
    { weight: () => 3.5, run: acceptTrade },
  ];
}

function auction(ctx: DemoContext): Transaction | null {
  const picked = pickOwnerWithFreeAssets(ctx.world, ctx.random, ctx.wallets.traderIndexes);
  if (!picked) return null;
  const { owner, free } = picked;
  const count = Math.min(free.size, 1 + ctx.random.weightedIndex(AUCTION_SIZE_WEIGHTS));
  const assets = ctx.random.drawDistinct(free, count);
  const startAmount = ctx.random.chance(OVERSIZED_AMOUNT_CHANCE) ? ctx.oversizedAmount() : BigInt(ctx.random.int(5, 50_000)) * (COIN / 10n);
  // Most auctions run a few hundred blocks; some far longer, so they outlive the ledger.
  const duration = ctx.random.chance(0.85) ? ctx.random.int(0, 350) : ctx.random.int(400, 2500);
  const expiration = ctx.height + NFT_AUCTION_SAFETY_DISTANCE + 1 + duration;
  const nftAuction = { nftIds: assets.map((asset) => asset.id), startAmount: String(startAmount), expiration: { blockHeight: expiration } };
  const tx = ctx.transaction({ sender: owner, typeGroup: NFT_EXCHANGE_TYPE_GROUP, type: NftExchangeType.auction, asset: { nftAuction } });
  const state: AuctionState = { id: tx.id, seller: owner, nftIds: nftAuction.nftIds, startAmount, expiration, activeBidIds: [] };
  ctx.world.openAuction(state, assets);
  return tx;
}

function bid(ctx: DemoContext): Transaction | null {
  const target = ctx.world.drawUnexpiredAuction(ctx.height, (size) => ctx.random.index(size));
  if (!target) return null;
  const bidder = ctx.random.pick(ctx.wallets.traders.filter((wallet) => wallet.index !== target.seller)).index;
  const leading = highestBid(ctx, target)?.amount ?? target.startAmount;
  const firstAtStart = target.activeBidIds.length === 0 && ctx.random.chance(0.3);
  const amount = firstAtStart ? leading : leading + (leading * BigInt(ctx.random.int(1, 20))) / 100n + 1n;
  const nftBid = { auctionId: target.id, bidAmount: String(amount) };
  const tx = ctx.transaction({ sender: bidder, typeGroup: NFT_EXCHANGE_TYPE_GROUP, type: NftExchangeType.bid, asset: { nftBid } });
  ctx.world.placeBid(target, { id: tx.id, auctionId: target.id, bidder, amount });
  return tx;
}

function cancelBid(ctx: DemoContext): Transaction | null {
  if (ctx.world.activeBids.size === 0) return null;
  const canceled = ctx.random.draw(ctx.world.activeBids);
  const nftBidCancel = { bidId: canceled.id };
  const tx = ctx.transaction({
    sender: canceled.bidder,
    typeGroup: NFT_EXCHANGE_TYPE_GROUP,
    type: NftExchangeType.bidCancel,
    asset: { nftBidCancel },
  });
  ctx.world.cancelBid(canceled);
  return tx;
}

/**
 * An auction drawn from `candidates` with an expired one four times as likely
 * as one still running: a uniform draw kept with odds 1 (expired) or 1/4
 * (running), repeated until one is kept, picks each with exactly those weights.
 */
function drawFavouringExpired(ctx: DemoContext, candidates: PickableSet<AuctionState>): AuctionState | null {
  if (candidates.size === 0) return null;
  for (;;) {
    const candidate = ctx.random.draw(candidates);
    if (ctx.random.next() < (candidate.expiration <= ctx.height ? 1 : 0.25)) return candidate;
  }
}

/** Sellers mostly withdraw auctions that have run out, often ones nobody bid on. */
function cancelAuction(ctx: DemoContext): Transaction | null {
  const canceled = drawFavouringExpired(ctx, ctx.world.activeAuctions);
  if (!canceled) return null;
  const nftAuctionCancel = { auctionId: canceled.id };
  const tx = ctx.transaction({
    sender: canceled.seller,
    typeGroup: NFT_EXCHANGE_TYPE_GROUP,
    type: NftExchangeType.auctionCancel,
    asset: { nftAuctionCancel },
  });
  ctx.world.closeAuction(canceled);
  return tx;
}

/** The seller accepts the leading bid, usually once the auction has run out. */
function acceptTrade(ctx: DemoContext): Transaction | null {
  const traded = drawFavouringExpired(ctx, ctx.world.biddedAuctions);
  if (!traded) return null;
  const accepted = highestBid(ctx, traded)!;
  const nftAcceptTrade = { auctionId: traded.id, bidId: accepted.id };
  const tx = ctx.transaction({
    sender: traded.seller,
    typeGroup: NFT_EXCHANGE_TYPE_GROUP,
    type: NftExchangeType.acceptTrade,
    asset: { nftAcceptTrade },
  });
  ctx.world.closeAuction(traded);
  for (const nftId of traded.nftIds) ctx.world.transfer(ctx.world.assets.get(nftId)!, accepted.bidder);
  return tx;
}

function highestBid(ctx: DemoContext, target: AuctionState): BidState | undefined {
  let highest: BidState | undefined;
  for (const id of target.activeBidIds) {
    const candidate = ctx.world.bids.get(id)!;
    if (!highest || candidate.amount > highest.amount) highest = candidate;
  }
  return highest;
}
