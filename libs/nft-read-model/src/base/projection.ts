import { parseTransaction, type ProjectionContext, type Transaction, type TransactionSchema } from '@ledger-api/ledger';
import type { CollectionSpec } from '@ledger-api/store';
import { LEDGER_ORDER, ledgerRecord, ledgerRecordCollection, ledgerRecordIndexes, ledgerSortIndexes } from '../records/ledger-record';
import { writingOnly, type NftProjectionPartFactory } from '../records/projection-part';
import type { WalletNames } from '../records/wallet-names';
import { STORE_COLLECTIONS } from '../records/store-collections';
import { NFT_BASE_TYPE_GROUP, NFT_EXCHANGE_TYPE_GROUP, NftBaseType, NftExchangeType } from '../records/transaction-types';
import type { AuctionLookup, BidLookup } from '../exchange/documents';
import { acceptTradeTransaction } from '../exchange/payloads';
import type { AssetDoc, BurnDoc, CollectionDoc, TransferDoc } from './documents';
import { burnTransaction, collectionTransaction, tokenTransaction, transferTransaction, type PayloadOf } from './payloads';
import { collectionSearchForm, SEARCH_FORM_INDEX, searchForm } from './search-form';

const { collections: COLLECTIONS, assets: ASSETS, burns: BURNS, transfers: TRANSFERS } = STORE_COLLECTIONS;

type CollectionPayload = PayloadOf<typeof collectionTransaction>['nftCollection'];
type TokenPayload = PayloadOf<typeof tokenTransaction>['nftToken'];
type TransferPayload = PayloadOf<typeof transferTransaction>['nftTransfer'];

function registerCollection(ctx: ProjectionContext, tx: Transaction, sequence: number, wallets: WalletNames, asset: CollectionPayload): void {
  ctx.put(COLLECTIONS, {
    ...ledgerRecord(ctx.block, tx, sequence, wallets),
    name: asset.name,
    description: asset.description,
    maximumSupply: asset.maximumSupply,
    jsonSchema: asset.jsonSchema,
    ...(asset.allowedIssuers !== undefined && { allowedIssuers: asset.allowedIssuers }),
    ...(asset.metadata !== undefined && { metadata: asset.metadata }),
    registrantAddress: wallets.addressOf(tx.senderPublicKey),
    currentSupply: 0,
    burnedCount: 0,
    searchForm: collectionSearchForm({ ...asset, senderPublicKey: tx.senderPublicKey }),
  } satisfies CollectionDoc);
}

async function changeSupply(ctx: ProjectionContext, collectionId: string, change: { minted?: number; burned?: number }): Promise<void> {
  const collection = await ctx.get<CollectionDoc>(COLLECTIONS, collectionId);
  if (!collection) return;
  const { minted = 0, burned = 0 } = change;
  ctx.put(COLLECTIONS, { ...collection, currentSupply: collection.currentSupply + minted - burned, burnedCount: collection.burnedCount + burned });
}

async function mintToken(ctx: ProjectionContext, tx: Transaction, sequence: number, wallets: WalletNames, asset: TokenPayload): Promise<void> {
  ctx.put(ASSETS, {
    ...ledgerRecord(ctx.block, tx, sequence, wallets),
    collectionId: wallets.shared(asset.collectionId),
    attributes: asset.attributes,
    ownerAddress: asset.recipientId === undefined ? wallets.addressOf(tx.senderPublicKey) : wallets.shared(asset.recipientId),
    burned: false,
    searchForm: searchForm(asset.attributes),
  } satisfies AssetDoc);
  await changeSupply(ctx, asset.collectionId, { minted: 1 });
}

/** Burned assets keep no owner, so they can neither move nor count as anyone's. */
async function moveAssets(ctx: ProjectionContext, nftIds: readonly string[], ownerAddress: string): Promise<void> {
  for (const nftId of nftIds) {
    const asset = await ctx.get<AssetDoc>(ASSETS, nftId);
    if (!asset || asset.burned) continue;
    ctx.put(ASSETS, { ...asset, ownerAddress });
  }
}

/** The transfer is kept as sent, like a burn, even where some of its assets could not move. */
async function transferTokens(
  ctx: ProjectionContext,
  tx: Transaction,
  sequence: number,
  wallets: WalletNames,
  asset: TransferPayload,
): Promise<void> {
  const recipientId = wallets.shared(asset.recipientId);
  ctx.put(TRANSFERS, { ...ledgerRecord(ctx.block, tx, sequence, wallets), nftIds: asset.nftIds, recipientId } satisfies TransferDoc);
  await moveAssets(ctx, asset.nftIds, recipientId);
}

async function burnToken(ctx: ProjectionContext, tx: Transaction, sequence: number, wallets: WalletNames, nftId: string): Promise<void> {
  ctx.put(BURNS, { ...ledgerRecord(ctx.block, tx, sequence, wallets), nftId } satisfies BurnDoc);
  const burned = await ctx.get<AssetDoc>(ASSETS, nftId);
  if (!burned || burned.burned) return;
  ctx.put(ASSETS, { ...burned, burned: true, ownerAddress: null });
  await changeSupply(ctx, burned.collectionId, { burned: 1 });
}

/** The auction's NFTs go to the bidder; the exchange step has already stored both documents. */
async function acceptTrade(ctx: ProjectionContext, { auctionId, bidId }: PayloadOf<typeof acceptTradeTransaction>['nftAcceptTrade']): Promise<void> {
  const auction = await ctx.get<AuctionLookup>(STORE_COLLECTIONS.auctions, auctionId);
  const bid = await ctx.get<BidLookup>(STORE_COLLECTIONS.bids, bidId);
  if (!auction || !bid) return;
  await moveAssets(ctx, auction.nftIds, bid.bidderAddress);
}

/** The base collections with every index their lists use. */
const BASE_COLLECTIONS: CollectionSpec[] = [
  ledgerRecordCollection(COLLECTIONS, [
    ...ledgerRecordIndexes(['name', 'maximumSupply', 'registrantAddress']),
    ...ledgerSortIndexes(['name', 'maximumSupply']),
    SEARCH_FORM_INDEX,
  ]),
  ledgerRecordCollection(ASSETS, [...ledgerRecordIndexes(['collectionId', 'ownerAddress']), ...ledgerSortIndexes([]), SEARCH_FORM_INDEX]),
  ledgerRecordCollection(BURNS, [...ledgerRecordIndexes([]), ...ledgerSortIndexes([])]),
  ledgerRecordCollection(TRANSFERS, [...ledgerRecordIndexes([]), ...ledgerSortIndexes([])]),
];

/** What the exchange area reads of the base collections: a wallet's collections and assets, in ledger order. Burns and transfers it never reads. */
const BASE_LOOKUPS: CollectionSpec[] = [
  ledgerRecordCollection(COLLECTIONS, [{ key: { registrantAddress: 1, ...LEDGER_ORDER } }]),
  ledgerRecordCollection(ASSETS, [{ key: { ownerAddress: 1, ...LEDGER_ORDER } }]),
];

async function applyBaseTransaction(ctx: ProjectionContext, tx: Transaction, sequence: number, wallets: WalletNames): Promise<void> {
  const payloadOf = <Payload>(schema: TransactionSchema<{ asset: Payload }>) => parseTransaction(schema, ctx.block, tx, sequence).asset;
  if (tx.typeGroup === NFT_EXCHANGE_TYPE_GROUP) {
    if (tx.type === NftExchangeType.acceptTrade) await acceptTrade(ctx, payloadOf(acceptTradeTransaction).nftAcceptTrade);
    return;
  }
  if (tx.typeGroup !== NFT_BASE_TYPE_GROUP) return;
  if (tx.type === NftBaseType.collection) registerCollection(ctx, tx, sequence, wallets, payloadOf(collectionTransaction).nftCollection);
  else if (tx.type === NftBaseType.token) await mintToken(ctx, tx, sequence, wallets, payloadOf(tokenTransaction).nftToken);
  else if (tx.type === NftBaseType.transfer) await transferTokens(ctx, tx, sequence, wallets, payloadOf(transferTransaction).nftTransfer);
  else if (tx.type === NftBaseType.burn) await burnToken(ctx, tx, sequence, wallets, payloadOf(burnTransaction).nftBurn.nftId);
}

const BASE_TYPES = new Set<number>(Object.values(NftBaseType));

/** The base records change with base transactions and with accepted trades, which move ownership. */
function changesBase(tx: Transaction): boolean {
  if (tx.typeGroup === NFT_EXCHANGE_TYPE_GROUP) return tx.type === NftExchangeType.acceptTrade;
  return tx.typeGroup === NFT_BASE_TYPE_GROUP && BASE_TYPES.has(tx.type);
}

/** Collections, assets, transfers, burns and ownership, including ownership moved by accepted trades. */
export const createBasePart: NftProjectionPartFactory = (wallets, listed) => {
  const collections = listed ? BASE_COLLECTIONS : BASE_LOOKUPS;
  const context = listed ? (ctx: ProjectionContext) => ctx : writingOnly(collections);
  return {
    collections,
    projects: (tx) => listed && changesBase(tx),
    applyTransaction: (ctx, tx, sequence) => (changesBase(tx) ? applyBaseTransaction(context(ctx), tx, sequence, wallets) : undefined),
  };
};
