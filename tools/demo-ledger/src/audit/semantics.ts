import { addressFromPublicKey, type Block, type Transaction } from '@ledger-api/ledger';
import { NFT_AUCTION_SAFETY_DISTANCE } from '@ledger-api/nft-read-model';
import { schemaProblems } from './schema';

/**
 * Replays a final history with the rules of docs/ledger-events.md section 3 and the
 * plugin's validity rules, recording every transaction the ledger would have
 * refused, and how many records end in each state.
 */
export interface SemanticAudit {
  problems: string[];
  groups: Set<string>;
  users: Map<string, string[]>;
  updates: { groups: number; users: number };
  collections: Map<string, Collection>;
  assets: Map<string, Asset>;
  auctions: Record<'activeUnexpired' | 'activeExpired' | 'canceled' | 'traded', number>;
  bids: Record<'active' | 'canceled' | 'endedByAuctionCancel' | 'endedByTrade', number>;
  /** Addresses owning assets although their public key never signed anything. */
  silentOwners: Set<string>;
  /** Amounts, fees, start and bid amounts above 2^53. */
  oversizedValues: number;
}

interface Collection {
  sender: string;
  maximumSupply: number;
  currentSupply: number;
  jsonSchema: Record<string, unknown>;
  allowedIssuers?: string[];
}

interface Asset {
  collectionId: string;
  owner: string;
  burned: boolean;
  auctionId?: string;
}

interface Auction {
  seller: string;
  nftIds: string[];
  startAmount: bigint;
  expiration: number;
  state: 'active' | 'canceled' | 'traded';
  bidIds: string[];
}

interface Bid {
  auctionId: string;
  bidder: string;
  amount: bigint;
  state: 'active' | 'canceled' | 'endedByAuctionCancel' | 'endedByTrade';
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

type Handler = (tx: Transaction, sender: string, height: number) => void;

class Replay {
  readonly problems: string[] = [];
  readonly groups = new Set<string>();
  readonly users = new Map<string, string[]>();
  readonly updates = { groups: 0, users: 0 };
  readonly collections = new Map<string, Collection>();
  readonly assets = new Map<string, Asset>();
  readonly auctions = new Map<string, Auction>();
  readonly bids = new Map<string, Bid>();
  readonly signers = new Set<string>();
  oversizedValues = 0;
  private current = '';
  private readonly addresses = new Map<string, string>();

  constructor(private readonly network: number) {}

  readonly handlers: Record<string, Handler> = {
    '1/0': () => undefined,
    '9002/0': (tx) => {
      const { publicKey, groupNames = [] } = tx.asset!.setUserPermissions;
      if (this.users.has(publicKey)) this.updates.users++;
      this.users.set(publicKey, groupNames);
    },
    '9002/1': (tx) => {
      const { name, priority } = tx.asset!.setGroupPermissions;
      this.check(name.length >= 1 && name.length <= 40 && Number.isInteger(priority) && priority >= 0 && priority <= 1000, 'group out of bounds');
      if (this.groups.has(name)) this.updates.groups++;
      this.groups.add(name);
    },
    '9000/0': (tx, sender) => {
      const { name, description, maximumSupply, jsonSchema, allowedIssuers } = tx.asset!.nftCollection;
      const lengthsValid = name.length >= 5 && name.length <= 40 && description.length >= 5 && description.length <= 80;
      this.check(lengthsValid, 'collection name or description length');
      this.check(!allowedIssuers || (allowedIssuers.length >= 1 && allowedIssuers.length <= 10), 'allowedIssuers size');
      this.collections.set(tx.id, { sender, maximumSupply, currentSupply: 0, jsonSchema, allowedIssuers });
    },
    '9000/1': (tx, sender) => {
      const { collectionId, attributes, recipientId } = tx.asset!.nftToken;
      const collection = this.collections.get(collectionId);
      if (!this.check(collection !== undefined, 'mint into an unknown collection')) return;
      this.check(!collection!.allowedIssuers || collection!.allowedIssuers.includes(tx.senderPublicKey), 'mint by an issuer not allowed');
      this.check(collection!.currentSupply < collection!.maximumSupply, 'mint beyond maximumSupply');
      this.problems.push(...schemaProblems(attributes, collection!.jsonSchema).map((problem) => `tx ${tx.id}: ${problem}`));
      collection!.currentSupply++;
      this.assets.set(tx.id, { collectionId, owner: recipientId ?? sender, burned: false });
    },
    '9000/2': (tx, sender) => {
      const { nftIds, recipientId } = tx.asset!.nftTransfer;
      this.check(nftIds.length >= 1 && nftIds.length <= 10 && new Set(nftIds).size === nftIds.length, 'transfer size');
      for (const asset of this.ownedFreeAssets(nftIds, sender)) asset.owner = recipientId;
    },
    '9000/3': (tx, sender) => {
      for (const asset of this.ownedFreeAssets([tx.asset!.nftBurn.nftId], sender)) {
        asset.burned = true;
        const collection = this.collections.get(asset.collectionId)!;
        collection.currentSupply--;
        collection.maximumSupply--;
      }
    },
    '9001/0': (tx, sender, height) => {
      const { nftIds, startAmount, expiration } = tx.asset!.nftAuction;
      this.check(nftIds.length >= 1 && nftIds.length <= 10, 'auction size');
      this.check(expiration.blockHeight > height + NFT_AUCTION_SAFETY_DISTANCE, 'auction expires within the safety distance');
      for (const asset of this.ownedFreeAssets(nftIds, sender)) asset.auctionId = tx.id;
      this.countOversized(startAmount);
      const auction: Auction = {
        seller: sender,
        nftIds,
        startAmount: BigInt(startAmount),
        expiration: expiration.blockHeight,
        state: 'active',
        bidIds: [],
      };
      this.auctions.set(tx.id, auction);
    },
    '9001/1': (tx, sender) => {
      const auction = this.activeAuction(tx.asset!.nftAuctionCancel.auctionId, sender);
      if (auction) this.close(auction, 'canceled', 'endedByAuctionCancel');
    },
    '9001/2': (tx, sender, height) => {
      const { auctionId, bidAmount } = tx.asset!.nftBid;
      const auction = this.auctions.get(auctionId);
      if (!this.check(auction?.state === 'active', 'bid on an auction that is not active')) return;
      this.check(height < auction!.expiration, 'bid on an expired auction');
      this.check(auction!.seller !== sender, 'bid by the seller');
      this.check(BigInt(bidAmount) >= auction!.startAmount, 'bid below the start amount');
      this.countOversized(bidAmount);
      this.bids.set(tx.id, { auctionId, bidder: sender, amount: BigInt(bidAmount), state: 'active' });
      auction!.bidIds.push(tx.id);
    },
    '9001/3': (tx, sender) => {
      const bid = this.bids.get(tx.asset!.nftBidCancel.bidId);
      if (!this.check(bid?.state === 'active' && bid.bidder === sender, "cancel of a bid that is not the sender's active bid")) return;
      bid!.state = 'canceled';
    },
    '9001/4': (tx, sender) => {
      const { auctionId, bidId } = tx.asset!.nftAcceptTrade;
      const auction = this.activeAuction(auctionId, sender);
      const bid = this.bids.get(bidId);
      const bidValid = this.check(bid?.state === 'active' && bid.auctionId === auctionId, 'trade of a bid that is not active on that auction');
      if (!bidValid || !auction) return;
      this.close(auction, 'traded', 'endedByTrade');
      for (const nftId of auction.nftIds) this.assets.get(nftId)!.owner = bid!.bidder;
    },
  };

  apply(block: Block): void {
    for (const tx of block.transactions) {
      this.current = `height ${block.height}: tx ${tx.id}`;
      const sender = this.addressOf(tx.senderPublicKey);
      this.signers.add(sender);
      this.countOversized(tx.amount);
      this.countOversized(tx.fee);
      const handler = this.handlers[`${tx.typeGroup}/${tx.type}`];
      if (this.check(handler !== undefined, 'unknown transaction type')) handler(tx, sender, block.height);
    }
  }

  /** Records a problem for the current transaction unless the condition holds; returns it. */
  check(condition: boolean, problem: string): boolean {
    if (!condition) this.problems.push(`${this.current}: ${problem}`);
    return condition;
  }

  private addressOf(publicKey: string): string {
    let address = this.addresses.get(publicKey);
    if (address === undefined) {
      address = addressFromPublicKey(publicKey, this.network);
      this.addresses.set(publicKey, address);
    }
    return address;
  }

  private ownedFreeAssets(nftIds: string[], sender: string): Asset[] {
    return nftIds.flatMap((nftId) => {
      const asset = this.assets.get(nftId);
      const usable = asset !== undefined && !asset.burned && asset.owner === sender && asset.auctionId === undefined;
      return this.check(usable, `asset ${nftId} is not the sender's to use`) ? [asset!] : [];
    });
  }

  private activeAuction(auctionId: string, sender: string): Auction | undefined {
    const auction = this.auctions.get(auctionId);
    return this.check(auction?.state === 'active' && auction.seller === sender, "not the sender's active auction") ? auction : undefined;
  }

  private close(auction: Auction, state: 'canceled' | 'traded', bidEnd: Bid['state']): void {
    auction.state = state;
    for (const bidId of auction.bidIds) {
      const bid = this.bids.get(bidId)!;
      if (bid.state === 'active') bid.state = bidEnd;
    }
    for (const nftId of auction.nftIds) delete this.assets.get(nftId)!.auctionId;
  }

  private countOversized(amount: string): void {
    if (BigInt(amount) > MAX_SAFE) this.oversizedValues++;
  }
}

export function auditSemantics(history: Block[], network: number): SemanticAudit {
  const replay = new Replay(network);
  for (const block of history) replay.apply(block);
  const finalHeight = history[history.length - 1]?.height ?? 0;
  const auctions = { activeUnexpired: 0, activeExpired: 0, canceled: 0, traded: 0 };
  for (const auction of replay.auctions.values()) {
    if (auction.state !== 'active') auctions[auction.state]++;
    else if (auction.expiration > finalHeight) auctions.activeUnexpired++;
    else auctions.activeExpired++;
  }
  const bids = { active: 0, canceled: 0, endedByAuctionCancel: 0, endedByTrade: 0 };
  for (const bid of replay.bids.values()) bids[bid.state]++;
  const liveAssets = [...replay.assets.values()].filter((asset) => !asset.burned);
  const silentOwners = new Set(liveAssets.map((asset) => asset.owner).filter((owner) => !replay.signers.has(owner)));
  const { problems, groups, users, updates, collections, assets, oversizedValues } = replay;
  return { problems, groups, users, updates, collections, assets, auctions, bids, silentOwners, oversizedValues };
}
