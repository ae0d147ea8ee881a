import { addressFromPublicKey, MAINNET_VERSION, type LedgerEvent, type Transaction } from '@ledger-api/ledger';
import { TestLedger, testPublicKey } from '@ledger-api/ledger/testing';
import { NFT_BASE_TYPE_GROUP, NFT_EXCHANGE_TYPE_GROUP, NftBaseType, NftExchangeType } from '../records/transaction-types';

export interface TestWallet {
  name: string;
  publicKey: string;
  address: string;
}

/** Transaction members a test may set; the builder fills in the rest. */
export interface TransactionOptions {
  nonce?: string;
  fee?: string;
  amount?: string;
  recipientId?: string;
  vendorField?: string;
}

export interface NftCollectionPayload {
  name: string;
  description: string;
  maximumSupply: number;
  jsonSchema: Record<string, unknown>;
  allowedIssuers?: string[];
  metadata?: Record<string, unknown>;
}

export interface NftAuctionPayload {
  nftIds: string[];
  startAmount: string;
  expiration: { blockHeight: number };
}

/**
 * Builds NFT ledgers for tests on top of TestLedger (consecutive heights,
 * chained block ids, per-sender nonces, deterministic ids): named wallets with
 * their addresses and a factory for every 9000/9001 transaction type. `events`
 * is the whole stream built so far; `block` and `revert` also return the event
 * they add.
 */
export class NftLedgerBuilder {
  readonly events: LedgerEvent[] = [];
  private readonly ledger = new TestLedger('nft');
  private readonly wallets = new Map<string, TestWallet>();

  constructor(private readonly networkVersion: number = MAINNET_VERSION) {}

  /** Height of the last applied block (0 before the first). */
  get height(): number {
    return this.ledger.height;
  }

  /** The same name always gives the same keys. */
  wallet(name: string): TestWallet {
    let wallet = this.wallets.get(name);
    if (!wallet) {
      const publicKey = testPublicKey(name);
      wallet = { name, publicKey, address: addressFromPublicKey(publicKey, this.networkVersion) };
      this.wallets.set(name, wallet);
    }
    return wallet;
  }

  /** Appends a block holding the transactions at the next height. */
  block(...transactions: Transaction[]): LedgerEvent {
    this.ledger.block(transactions);
    return this.record();
  }

  /** Appends `count` empty blocks, e.g. to reach an auction's expiration height. */
  emptyBlocks(count: number): LedgerEvent[] {
    return Array.from({ length: count }, () => this.block());
  }

  /** Takes the last applied block back. */
  revert(): LedgerEvent {
    this.ledger.revert();
    return this.record();
  }

  transaction(sender: TestWallet, typeGroup: number, type: number, asset?: Record<string, unknown>, options: TransactionOptions = {}): Transaction {
    const { nonce, fee = '0', amount = '0', ...members } = options;
    return this.ledger.transaction({
      typeGroup,
      type,
      senderPublicKey: sender.publicKey,
      network: this.networkVersion,
      fee,
      amount,
      ...(nonce !== undefined && { nonce }),
      ...members,
      ...(asset && { asset }),
    });
  }

  collection(sender: TestWallet, nftCollection: NftCollectionPayload, options?: TransactionOptions): Transaction {
    return this.transaction(sender, NFT_BASE_TYPE_GROUP, NftBaseType.collection, { nftCollection }, options);
  }

  /** Mints to `recipientId` when given, else to the sender. */
  token(
    sender: TestWallet,
    collectionId: string,
    attributes: Record<string, unknown>,
    recipientId?: string,
    options?: TransactionOptions,
  ): Transaction {
    const nftToken = { collectionId, attributes, ...(recipientId !== undefined && { recipientId }) };
    return this.transaction(sender, NFT_BASE_TYPE_GROUP, NftBaseType.token, { nftToken }, options);
  }

  transfer(sender: TestWallet, nftIds: string[], recipientId: string, options?: TransactionOptions): Transaction {
    return this.transaction(sender, NFT_BASE_TYPE_GROUP, NftBaseType.transfer, { nftTransfer: { nftIds, recipientId } }, options);
  }

  burn(sender: TestWallet, nftId: string, options?: TransactionOptions): Transaction {
    return this.transaction(sender, NFT_BASE_TYPE_GROUP, NftBaseType.burn, { nftBurn: { nftId } }, options);
  }

  auction(sender: TestWallet, nftAuction: NftAuctionPayload, options?: TransactionOptions): Transaction {
    return this.transaction(sender, NFT_EXCHANGE_TYPE_GROUP, NftExchangeType.auction, { nftAuction }, options);
  }

  auctionCancel(sender: TestWallet, auctionId: string, options?: TransactionOptions): Transaction {
    return this.transaction(sender, NFT_EXCHANGE_TYPE_GROUP, NftExchangeType.auctionCancel, { nftAuctionCancel: { auctionId } }, options);
  }

  bid(sender: TestWallet, auctionId: string, bidAmount: string, options?: TransactionOptions): Transaction {
    return this.transaction(sender, NFT_EXCHANGE_TYPE_GROUP, NftExchangeType.bid, { nftBid: { auctionId, bidAmount } }, options);
  }

  bidCancel(sender: TestWallet, bidId: string, options?: TransactionOptions): Transaction {
    return this.transaction(sender, NFT_EXCHANGE_TYPE_GROUP, NftExchangeType.bidCancel, { nftBidCancel: { bidId } }, options);
  }

  acceptTrade(sender: TestWallet, auctionId: string, bidId: string, options?: TransactionOptions): Transaction {
    return this.transaction(sender, NFT_EXCHANGE_TYPE_GROUP, NftExchangeType.acceptTrade, { nftAcceptTrade: { auctionId, bidId } }, options);
  }

  private record(): LedgerEvent {
    const [event] = this.ledger.take();
    this.events.push(event);
    return event;
  }
}
