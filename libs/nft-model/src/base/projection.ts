import { addressFromPublicKey, type ProjectionContext, type Transaction } from '@ledger-api/ledger';
import { ledgerRecord, ledgerRecordIndexes } from '../records/ledger-record';
import type { NftProjectionPartFactory } from '../records/projection-part';
import { STORE_COLLECTIONS } from '../records/store-collections';
import { NFT_BASE_TYPE_GROUP, NFT_EXCHANGE_TYPE_GROUP, NftBaseType, NftExchangeType } from '../records/transaction-types';
import type { AuctionDoc, BidDoc } from '../exchange/documents';
import type { AssetDoc, BurnDoc, CollectionDoc } from './documents';

const { collections: COLLECTIONS, assets: ASSETS, burns: BURNS } = STORE_COLLECTIONS;

type Asset = Record<string, any>;

function registerCollection(ctx: ProjectionContext, tx: Transaction, sequence: number, networkVersion: number, asset: Asset): void {
  ctx.put(COLLECTIONS, {
    ...ledgerRecord(ctx.block, tx, sequence),
    name: asset.name,
    description: asset.description,
    maximumSupply: asset.maximumSupply,
    jsonSchema: asset.jsonSchema,
    ...(asset.allowedIssuers !== undefined && { allowedIssuers: asset.allowedIssuers }),
    ...(asset.metadata !== undefined && { metadata: asset.metadata }),
    registrantAddress: addressFromPublicKey(tx.senderPublicKey, networkVersion),
    currentSupply: 0,
    burnedCount: 0,
  } satisfies CollectionDoc);
}

async function changeSupply(ctx: ProjectionContext, collectionId: string, change: { minted?: number; burned?: number }): Promise<void> {
  const collection = await ctx.get<CollectionDoc>(COLLECTIONS, collectionId);
  if (!collection) return;
  const { minted = 0, burned = 0 } = change;
  collection.currentSupply += minted - burned;
  collection.burnedCount += burned;
  ctx.put(COLLECTIONS, collection);
}

async function mintToken(ctx: ProjectionContext, tx: Transaction, sequence: number, networkVersion: number, asset: Asset): Promise<void> {
  ctx.put(ASSETS, {
    ...ledgerRecord(ctx.block, tx, sequence),
    collectionId: asset.collectionId,
    attributes: asset.attributes ?? {},
    ownerAddress: asset.recipientId ?? addressFromPublicKey(tx.senderPublicKey, networkVersion),
    burned: false,
  } satisfies AssetDoc);
  await changeSupply(ctx, asset.collectionId, { minted: 1 });
}

/** Burned assets keep no owner, so they can neither move nor count as anyone's. */
async function moveAssets(ctx: ProjectionContext, nftIds: unknown, ownerAddress: string): Promise<void> {
  if (!Array.isArray(nftIds)) return;
  for (const nftId of nftIds) {
    const asset = await ctx.get<AssetDoc>(ASSETS, String(nftId));
    if (!asset || asset.burned) continue;
    asset.ownerAddress = ownerAddress;
    ctx.put(ASSETS, asset);
  }
}

async function burnToken(ctx: ProjectionContext, tx: Transaction, sequence: number, asset: Asset): Promise<void> {
  const nftId = String(asset.nftId);
  ctx.put(BURNS, { ...ledgerRecord(ctx.block, tx, sequence), nftId } satisfies BurnDoc);
  const burned = await ctx.get<AssetDoc>(ASSETS, nftId);
  if (!burned || burned.burned) return;
  ctx.put(ASSETS, { ...burned, burned: true, ownerAddress: null });
  await changeSupply(ctx, burned.collectionId, { burned: 1 });
}

/** The auction's NFTs go to the bidder; the exchange step has already stored both documents. */
async function acceptTrade(ctx: ProjectionContext, asset: Asset): Promise<void> {
  const auction = await ctx.get<AuctionDoc>(STORE_COLLECTIONS.auctions, String(asset.auctionId));
  const bid = await ctx.get<BidDoc>(STORE_COLLECTIONS.bids, String(asset.bidId));
  if (!auction || !bid) return;
  await moveAssets(ctx, auction.nftIds, bid.bidderAddress);
}

/** Collections, assets, burns and ownership, including ownership moved by accepted trades. */
export const createBasePart: NftProjectionPartFactory = ({ networkVersion }) => ({
  collections: [
    { name: COLLECTIONS, indexes: ledgerRecordIndexes(['name', 'maximumSupply', 'registrantAddress']) },
    { name: ASSETS, indexes: ledgerRecordIndexes(['collectionId', 'ownerAddress']) },
    { name: BURNS, indexes: ledgerRecordIndexes([]) },
  ],
  async applyTransaction(ctx, tx, sequence) {
    const asset = tx.asset;
    if (!asset) return;
    if (tx.typeGroup === NFT_EXCHANGE_TYPE_GROUP) {
      if (tx.type === NftExchangeType.acceptTrade && asset.nftAcceptTrade) await acceptTrade(ctx, asset.nftAcceptTrade);
      return;
    }
    if (tx.typeGroup !== NFT_BASE_TYPE_GROUP) return;
    if (tx.type === NftBaseType.collection && asset.nftCollection) registerCollection(ctx, tx, sequence, networkVersion, asset.nftCollection);
    else if (tx.type === NftBaseType.token && asset.nftToken) await mintToken(ctx, tx, sequence, networkVersion, asset.nftToken);
    else if (tx.type === NftBaseType.transfer && asset.nftTransfer) await moveAssets(ctx, asset.nftTransfer.nftIds, String(asset.nftTransfer.recipientId));
    else if (tx.type === NftBaseType.burn && asset.nftBurn) await burnToken(ctx, tx, sequence, asset.nftBurn);
  },
});
