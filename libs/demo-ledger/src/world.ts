import type { Random } from './random';

export interface CollectionState {
  id: string;
  blueprint: number;
  issuers: number[];
  maximumSupply: number;
  currentSupply: number;
  /** Assets ever minted: gives each new asset a serial for unique attributes. */
  minted: number;
}

export interface AssetState {
  id: string;
  collectionId: string;
  owner: number;
  /** The active auction holding this asset, if any. */
  auctionId?: string;
}

export interface AuctionState {
  id: string;
  seller: number;
  nftIds: string[];
  startAmount: bigint;
  expiration: number;
  activeBidIds: string[];
}

export interface BidState {
  id: string;
  auctionId: string;
  bidder: number;
  amount: bigint;
}

/**
 * What the generator knows about the ledger it has produced so far, kept so
 * every new transaction is valid against the history before it. Wallets are
 * referred to by their index in the WalletPool. The whole state is plain data,
 * so a reorganisation can build an orphan branch on a copy and drop it.
 */
export interface WorldState {
  /** Last nonce used by each wallet that has signed. */
  nonces: Map<number, number>;
  /** How many scheduled Guardian and collection events have been emitted. */
  scheduleCursor: number;
  collections: Map<string, CollectionState>;
  assets: Map<string, AssetState>;
  /** Unburned assets by owner; burned ones stay in `assets` only. */
  holdings: Map<number, Set<string>>;
  auctions: Map<string, AuctionState>;
  /** Auctions neither canceled nor traded. */
  activeAuctionIds: Set<string>;
  bids: Map<string, BidState>;
  /** Bids not canceled whose auction is still active. */
  activeBidIds: Set<string>;
}

export function createWorld(): WorldState {
  return {
    nonces: new Map(),
    scheduleCursor: 0,
    collections: new Map(),
    assets: new Map(),
    holdings: new Map(),
    auctions: new Map(),
    activeAuctionIds: new Set(),
    bids: new Map(),
    activeBidIds: new Set(),
  };
}

export function copyWorld(world: WorldState): WorldState {
  return structuredClone(world);
}

export function nextNonce(world: WorldState, wallet: number): number {
  const nonce = (world.nonces.get(wallet) ?? 0) + 1;
  world.nonces.set(wallet, nonce);
  return nonce;
}

export function giveAsset(world: WorldState, asset: AssetState, owner: number): void {
  world.holdings.get(asset.owner)?.delete(asset.id);
  asset.owner = owner;
  let owned = world.holdings.get(owner);
  if (!owned) {
    owned = new Set();
    world.holdings.set(owner, owned);
  }
  owned.add(asset.id);
}

/** Assets the wallet may transfer, burn or auction: owned, unburned and not in an active auction. */
function freeAssets(world: WorldState, owner: number): AssetState[] {
  const free: AssetState[] = [];
  for (const id of world.holdings.get(owner) ?? []) {
    const asset = world.assets.get(id)!;
    if (!asset.auctionId) free.push(asset);
  }
  return free;
}

export function activeAuctions(world: WorldState): AuctionState[] {
  return [...world.activeAuctionIds].map((id) => world.auctions.get(id)!);
}

/** Closes an auction (canceled or traded), ending its active bids and releasing its assets. */
export function closeAuction(world: WorldState, auction: AuctionState): void {
  world.activeAuctionIds.delete(auction.id);
  for (const bidId of auction.activeBidIds) world.activeBidIds.delete(bidId);
  auction.activeBidIds = [];
  for (const nftId of auction.nftIds) delete world.assets.get(nftId)!.auctionId;
}

export interface OwnerWithFreeAssets {
  owner: number;
  free: AssetState[];
}

/** A random candidate among those holding at least one free asset, with those assets. */
export function pickOwnerWithFreeAssets(world: WorldState, random: Random, candidates: readonly number[]): OwnerWithFreeAssets | null {
  for (const owner of random.shuffle(candidates)) {
    const free = freeAssets(world, owner);
    if (free.length > 0) return { owner, free };
  }
  return null;
}
