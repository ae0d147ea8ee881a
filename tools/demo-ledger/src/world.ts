import { PickableSet } from './pickable-set';
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

type Undo = () => void;

/**
 * What the generator knows about the ledger it has produced so far, kept so
 * every new transaction is valid against the history before it. Wallets are
 * referred to by their index in the WalletPool. Every change goes through a
 * method here, and inside `branch` each one records how to take it back, so a
 * reorganisation builds its orphan blocks on this very world and then undoes
 * them, at a cost proportional to what they changed rather than to the world.
 * Members that a transaction draws at random sit in PickableSets, so drawing
 * costs the same however large the ledger grows.
 */
export class WorldState {
  /** Last nonce used by each wallet that has signed. */
  readonly nonces = new Map<number, number>();
  /** How many scheduled Guardian and collection events have been emitted. */
  scheduleCursor = 0;
  readonly collections = new Map<string, CollectionState>();
  /** Every asset ever minted, burned ones included. */
  readonly assets = new Map<string, AssetState>();
  readonly auctions = new Map<string, AuctionState>();
  /** Auctions neither canceled nor traded. */
  readonly activeAuctions = new PickableSet<AuctionState>();
  /** Active auctions not yet seen expired: bids go to these (see openAuction). */
  private readonly unexpiredAuctions = new PickableSet<AuctionState>();
  /** Active auctions holding at least one active bid. */
  readonly biddedAuctions = new PickableSet<AuctionState>();
  readonly bids = new Map<string, BidState>();
  /** Bids not canceled whose auction is still active. */
  readonly activeBids = new PickableSet<BidState>();
  /** Unburned assets outside any active auction, by owner: what a wallet may transfer, burn or auction. */
  private readonly free = new Map<number, PickableSet<AssetState>>();
  private journal: Undo[] | null = null;

  /** Runs `build` on this world, then takes back every change it made. */
  branch<T>(build: () => T): T {
    if (this.journal) throw new Error('branches do not nest');
    const journal: Undo[] = [];
    this.journal = journal;
    try {
      return build();
    } finally {
      this.journal = null;
      for (let i = journal.length - 1; i >= 0; i--) journal[i]();
    }
  }

  nextNonce(wallet: number): number {
    const previous = this.nonces.get(wallet);
    const nonce = (previous ?? 0) + 1;
    this.nonces.set(wallet, nonce);
    this.journal?.push(() => (previous === undefined ? this.nonces.delete(wallet) : this.nonces.set(wallet, previous)));
    return nonce;
  }

  /** The index of the next scheduled event, which is now emitted. */
  takeScheduled(): number {
    const cursor = this.scheduleCursor++;
    this.journal?.push(() => (this.scheduleCursor = cursor));
    return cursor;
  }

  registerCollection(collection: CollectionState): void {
    this.setEntry(this.collections, collection.id, collection);
  }

  mint(collection: CollectionState, id: string, owner: number): void {
    const asset: AssetState = { id, collectionId: collection.id, owner };
    this.setEntry(this.assets, id, asset);
    this.addTo(this.freeAssetsOf(owner), asset);
    this.change(collection, 'currentSupply', collection.currentSupply + 1);
    this.change(collection, 'minted', collection.minted + 1);
  }

  /** The wallet's free assets (see `free`); empty for a wallet without any. */
  freeAssetsOf(owner: number): PickableSet<AssetState> {
    let owned = this.free.get(owner);
    if (!owned) {
      owned = new PickableSet();
      this.free.set(owner, owned);
    }
    return owned;
  }

  /** Moves a free asset to another owner. */
  transfer(asset: AssetState, owner: number): void {
    this.deleteFrom(this.freeAssetsOf(asset.owner), asset);
    this.change(asset, 'owner', owner);
    this.addTo(this.freeAssetsOf(owner), asset);
  }

  /** Burns a free asset: its collection has one less in supply and in maximum supply. */
  burn(asset: AssetState): void {
    this.deleteFrom(this.freeAssetsOf(asset.owner), asset);
    const collection = this.collections.get(asset.collectionId)!;
    this.change(collection, 'currentSupply', collection.currentSupply - 1);
    this.change(collection, 'maximumSupply', collection.maximumSupply - 1);
  }

  openAuction(auction: AuctionState, assets: AssetState[]): void {
    this.setEntry(this.auctions, auction.id, auction);
    this.addTo(this.activeAuctions, auction);
    this.addTo(this.unexpiredAuctions, auction);
    for (const asset of assets) {
      this.deleteFrom(this.freeAssetsOf(asset.owner), asset);
      this.change(asset, 'auctionId', auction.id);
    }
  }

  /**
   * An active auction that has not expired at `height`, drawn at random;
   * undefined when there is none. Auctions found expired on the way are
   * dropped from the draw for good, so each costs one draw in all.
   */
  drawUnexpiredAuction(height: number, draw: (size: number) => number): AuctionState | undefined {
    while (this.unexpiredAuctions.size > 0) {
      const auction = this.unexpiredAuctions.at(draw(this.unexpiredAuctions.size));
      if (auction.expiration > height) return auction;
      this.deleteFrom(this.unexpiredAuctions, auction);
    }
    return undefined;
  }

  placeBid(auction: AuctionState, bid: BidState): void {
    this.setEntry(this.bids, bid.id, bid);
    this.addTo(this.activeBids, bid);
    this.change(auction, 'activeBidIds', [...auction.activeBidIds, bid.id]);
    this.addTo(this.biddedAuctions, auction);
  }

  cancelBid(bid: BidState): void {
    this.deleteFrom(this.activeBids, bid);
    const auction = this.auctions.get(bid.auctionId)!;
    this.change(
      auction,
      'activeBidIds',
      auction.activeBidIds.filter((id) => id !== bid.id),
    );
    if (auction.activeBidIds.length === 0) this.deleteFrom(this.biddedAuctions, auction);
  }

  /** Closes an auction (canceled or traded): its active bids end and its assets are free again. */
  closeAuction(auction: AuctionState): void {
    for (const set of [this.activeAuctions, this.unexpiredAuctions, this.biddedAuctions]) this.deleteFrom(set, auction);
    for (const bidId of auction.activeBidIds) this.deleteFrom(this.activeBids, this.bids.get(bidId)!);
    this.change(auction, 'activeBidIds', []);
    for (const nftId of auction.nftIds) {
      const asset = this.assets.get(nftId)!;
      this.change(asset, 'auctionId', undefined);
      this.addTo(this.freeAssetsOf(asset.owner), asset);
    }
  }

  private setEntry<V>(map: Map<string, V>, key: string, value: V): void {
    map.set(key, value);
    this.journal?.push(() => map.delete(key));
  }

  private change<T extends object, K extends keyof T>(target: T, key: K, value: T[K]): void {
    const previous = target[key];
    target[key] = value;
    this.journal?.push(() => (target[key] = previous));
  }

  private addTo<T>(set: PickableSet<T>, member: T): void {
    if (set.add(member)) this.journal?.push(() => set.delete(member));
  }

  private deleteFrom<T>(set: PickableSet<T>, member: T): void {
    if (set.delete(member)) this.journal?.push(() => set.add(member));
  }
}

export interface OwnerWithFreeAssets {
  owner: number;
  free: PickableSet<AssetState>;
}

/** A random candidate among those holding at least one free asset, with those assets. */
export function pickOwnerWithFreeAssets(world: WorldState, random: Random, candidates: readonly number[]): OwnerWithFreeAssets | null {
  for (const owner of random.shuffle(candidates)) {
    const free = world.freeAssetsOf(owner);
    if (free.size > 0) return { owner, free };
  }
  return null;
}
