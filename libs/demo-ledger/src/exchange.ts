import type { Transaction } from '@ledger-api/ledger';
import { NFT_AUCTION_SAFETY_DISTANCE, NFT_EXCHANGE_TYPE_GROUP, NftExchangeType } from '@ledger-api/nft-read-model';
import type { DemoAction, DemoContext } from './context';
import { activeAuctions, closeAuction, giveAsset, pickOwnerWithFreeAssets, type AuctionState, type BidState } from './world';

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
  const count = Math.min(free.length, 1 + ctx.random.weightedIndex(AUCTION_SIZE_WEIGHTS));
  const assets = ctx.random.sample(free, count);
  const startAmount = ctx.random.chance(OVERSIZED_AMOUNT_CHANCE) ? ctx.oversizedAmount() : BigInt(ctx.random.int(5, 50_000)) * (COIN / 10n);
  // Most auctions run a few hundred blocks; some far longer, so they outlive the ledger.
  const duration = ctx.random.chance(0.85) ? ctx.random.int(0, 350) : ctx.random.int(400, 2500);
  const expiration = ctx.height + NFT_AUCTION_SAFETY_DISTANCE + 1 + duration;
  const nftAuction = { nftIds: assets.map((asset) => asset.id), startAmount: String(startAmount), expiration: { blockHeight: expiration } };
  const tx = ctx.transaction({ sender: owner, typeGroup: NFT_EXCHANGE_TYPE_GROUP, type: NftExchangeType.auction, asset: { nftAuction } });
  const state: AuctionState = { id: tx.id, seller: owner, nftIds: nftAuction.nftIds, startAmount, expiration, activeBidIds: [] };
  ctx.world.auctions.set(tx.id, state);
  ctx.world.activeAuctionIds.add(tx.id);
  for (const asset of assets) asset.auctionId = tx.id;
  return tx;
}

function bid(ctx: DemoContext): Transaction | null {
  const open = activeAuctions(ctx.world).filter((candidate) => candidate.expiration > ctx.height);
  if (open.length === 0) return null;
  const target = ctx.random.pick(open);
  const bidder = ctx.random.pick(ctx.wallets.traders.filter((wallet) => wallet.index !== target.seller)).index;
  const leading = highestBid(ctx, target)?.amount ?? target.startAmount;
  const firstAtStart = target.activeBidIds.length === 0 && ctx.random.chance(0.3);
  const amount = firstAtStart ? leading : leading + (leading * BigInt(ctx.random.int(1, 20))) / 100n + 1n;
  const nftBid = { auctionId: target.id, bidAmount: String(amount) };
  const tx = ctx.transaction({ sender: bidder, typeGroup: NFT_EXCHANGE_TYPE_GROUP, type: NftExchangeType.bid, asset: { nftBid } });
  ctx.world.bids.set(tx.id, { id: tx.id, auctionId: target.id, bidder, amount });
  ctx.world.activeBidIds.add(tx.id);
  target.activeBidIds.push(tx.id);
  return tx;
}

function cancelBid(ctx: DemoContext): Transaction | null {
  if (ctx.world.activeBidIds.size === 0) return null;
  const canceled = ctx.world.bids.get(ctx.random.pick([...ctx.world.activeBidIds]))!;
  const nftBidCancel = { bidId: canceled.id };
  const tx = ctx.transaction({
    sender: canceled.bidder,
    typeGroup: NFT_EXCHANGE_TYPE_GROUP,
    type: NftExchangeType.bidCancel,
    asset: { nftBidCancel },
  });
  ctx.world.activeBidIds.delete(canceled.id);
  const target = ctx.world.auctions.get(canceled.auctionId)!;
  target.activeBidIds = target.activeBidIds.filter((id) => id !== canceled.id);
  return tx;
}

/** Sellers mostly withdraw auctions that have run out, often ones nobody bid on. */
function cancelAuction(ctx: DemoContext): Transaction | null {
  const candidates = activeAuctions(ctx.world);
  const index = ctx.random.weightedIndex(candidates.map((candidate) => (candidate.expiration <= ctx.height ? 4 : 1)));
  if (index < 0) return null;
  const canceled = candidates[index];
  const nftAuctionCancel = { auctionId: canceled.id };
  const tx = ctx.transaction({
    sender: canceled.seller,
    typeGroup: NFT_EXCHANGE_TYPE_GROUP,
    type: NftExchangeType.auctionCancel,
    asset: { nftAuctionCancel },
  });
  closeAuction(ctx.world, canceled);
  return tx;
}

/** The seller accepts the leading bid, usually once the auction has run out. */
function acceptTrade(ctx: DemoContext): Transaction | null {
  const candidates = activeAuctions(ctx.world).filter((candidate) => candidate.activeBidIds.length > 0);
  const index = ctx.random.weightedIndex(candidates.map((candidate) => (candidate.expiration <= ctx.height ? 4 : 1)));
  if (index < 0) return null;
  const traded = candidates[index];
  const accepted = highestBid(ctx, traded)!;
  const nftAcceptTrade = { auctionId: traded.id, bidId: accepted.id };
  const tx = ctx.transaction({
    sender: traded.seller,
    typeGroup: NFT_EXCHANGE_TYPE_GROUP,
    type: NftExchangeType.acceptTrade,
    asset: { nftAcceptTrade },
  });
  closeAuction(ctx.world, traded);
  for (const nftId of traded.nftIds) giveAsset(ctx.world, ctx.world.assets.get(nftId)!, accepted.bidder);
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
