import { createHash } from 'node:crypto';
import { addressFromPublicKey, MAINNET_VERSION, type Block, type LedgerEvent, type Transaction } from '@ledger-api/ledger';
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

export interface NftCollectionAsset {
  name: string;
  description: string;
  maximumSupply: number;
  jsonSchema: Record<string, unknown>;
  allowedIssuers?: string[];
  metadata?: Record<string, unknown>;
}

export interface NftAuctionAsset {
  nftIds: string[];
  startAmount: string;
  expiration: { blockHeight: number };
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const GENESIS_PARENT = '0'.repeat(64);
const FIRST_UNIX = 1_600_000_000;
const BLOCK_SECONDS = 8;

/**
 * Builds NFT ledgers for tests: deterministic wallets, transaction ids and
 * block ids, consecutive heights chained through previousBlock, and a
 * factory for every 9000/9001 transaction type. `events` is the whole stream
 * built so far; `block` and `revert` also return the event they add.
 */
export class NftLedgerBuilder {
  readonly events: LedgerEvent[] = [];
  private readonly chain: Block[] = [];
  private readonly wallets = new Map<string, TestWallet>();
  private readonly nonces = new Map<string, bigint>();
  private transactionsMade = 0;
  private blocksMade = 0;

  constructor(private readonly networkVersion: number = MAINNET_VERSION) {}

  /** Height of the last applied block (0 before the first). */
  get height(): number {
    return this.chain.length;
  }

  /** The same name always gives the same keys. */
  wallet(name: string): TestWallet {
    let wallet = this.wallets.get(name);
    if (!wallet) {
      const publicKey = `02${sha256(`wallet:${name}`)}`;
      wallet = { name, publicKey, address: addressFromPublicKey(publicKey, this.networkVersion) };
      this.wallets.set(name, wallet);
    }
    return wallet;
  }

  /** Appends a block holding the transactions at the next height. */
  block(...transactions: Transaction[]): LedgerEvent {
    this.blocksMade += 1;
    const height = this.chain.length + 1;
    const unix = FIRST_UNIX + height * BLOCK_SECONDS;
    const block: Block = {
      id: sha256(`block:${this.blocksMade}`),
      height,
      previousBlock: this.chain.at(-1)?.id ?? GENESIS_PARENT,
      timestamp: { epoch: height * BLOCK_SECONDS, unix, human: new Date(unix * 1000).toISOString() },
      transactions,
    };
    this.chain.push(block);
    return this.record({ event: 'block.applied', block });
  }

  /** Appends `count` empty blocks, e.g. to reach an auction's expiration height. */
  emptyBlocks(count: number): LedgerEvent[] {
    return Array.from({ length: count }, () => this.block());
  }

  /** Takes the last applied block back. */
  revert(): LedgerEvent {
    const block = this.chain.pop();
    if (!block) throw new Error('no block to revert');
    return this.record({ event: 'block.reverted', block: { id: block.id, height: block.height } });
  }

  transaction(sender: TestWallet, typeGroup: number, type: number, asset?: Record<string, unknown>, options: TransactionOptions = {}): Transaction {
    this.transactionsMade += 1;
    const { nonce, fee = '0', amount = '0', ...members } = options;
    return {
      id: sha256(`tx:${this.transactionsMade}`),
      version: 2,
      network: this.networkVersion,
      typeGroup,
      type,
      nonce: nonce ?? this.nextNonce(sender),
      senderPublicKey: sender.publicKey,
      fee,
      amount,
      ...members,
      ...(asset && { asset }),
      signature: sha256(`signature:${this.transactionsMade}`).repeat(2),
    };
  }

  collection(sender: TestWallet, nftCollection: NftCollectionAsset, options?: TransactionOptions): Transaction {
    return this.transaction(sender, NFT_BASE_TYPE_GROUP, NftBaseType.collection, { nftCollection }, options);
  }

  /** Mints to `recipientId` when given, else to the sender. */
  token(sender: TestWallet, collectionId: string, attributes: Record<string, unknown>, recipientId?: string, options?: TransactionOptions): Transaction {
    const nftToken = { collectionId, attributes, ...(recipientId !== undefined && { recipientId }) };
    return this.transaction(sender, NFT_BASE_TYPE_GROUP, NftBaseType.token, { nftToken }, options);
  }

  transfer(sender: TestWallet, nftIds: string[], recipientId: string, options?: TransactionOptions): Transaction {
    return this.transaction(sender, NFT_BASE_TYPE_GROUP, NftBaseType.transfer, { nftTransfer: { nftIds, recipientId } }, options);
  }

  burn(sender: TestWallet, nftId: string, options?: TransactionOptions): Transaction {
    return this.transaction(sender, NFT_BASE_TYPE_GROUP, NftBaseType.burn, { nftBurn: { nftId } }, options);
  }

  auction(sender: TestWallet, nftAuction: NftAuctionAsset, options?: TransactionOptions): Transaction {
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

  private nextNonce(sender: TestWallet): string {
    const nonce = (this.nonces.get(sender.publicKey) ?? 0n) + 1n;
    this.nonces.set(sender.publicKey, nonce);
    return String(nonce);
  }

  private record(event: LedgerEvent): LedgerEvent {
    this.events.push(event);
    return event;
  }
}
