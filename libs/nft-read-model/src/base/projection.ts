import { addressFromPublicKey, parseTransaction, type ProjectionContext, type Transaction, type TransactionSchema } from '@ledger-api/ledger';
import { ledgerRecord, ledgerRecordIndexes, ledgerSortIndexes } from '../records/ledger-record';
import type { NftProjectionPartFactory } from '../records/projection-part';
import { STORE_COLLECTIONS } from '../records/store-collections';
import { NFT_BASE_TYPE_GROUP, NFT_EXCHANGE_TYPE_GROUP, NftBaseType, NftExchangeType } from '../records/transaction-types';
import type { AuctionDoc, BidDoc } from '../exchange/documents';
import { acceptTradeTransaction } from '../exchange/payloads';
import type { AssetDoc, BurnDoc, CollectionDoc } from './documents';
import { burnTransaction, collectionTransaction, tokenTransaction, transferTransaction, type PayloadOf } from './payloads';
import { collectionSearchForm, SEARCH_FORM_INDEX, searchForm } from './search-form';

const { collections: COLLECTIONS, assets: ASSETS, burns: BURNS } = STORE_COLLECTIONS;

type CollectionPayload = PayloadOf<typeof collectionTransaction>['nftCollection'];
type TokenPayload = PayloadOf<typeof tokenTransaction>['nftToken'];

function registerCollection(ctx: ProjectionContext, tx: Transaction, sequence: number, networkVersion: number, asset: CollectionPayload): void {
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
    searchForm: collectionSearchForm({ ...asset, senderPublicKey: tx.senderPublicKey }),
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

async function mintToken(ctx: ProjectionContext, tx: Transaction, sequence: number, networkVersion: number, asset: TokenPayload): Promise<void> {
  ctx.put(ASSETS, {
    ...ledgerRecord(ctx.block, tx, sequence),
    collectionId: asset.collectionId,
    attributes: asset.attributes,
    ownerAddress: asset.recipientId ?? addressFromPublicKey(tx.senderPublicKey, networkVersion),
    burned: false,
    searchForm: searchForm(asset.attributes),
  } satisfies AssetDoc);
  await changeSupply(ctx, asset.collectionId, { minted: 1 });
}

/** Burned assets keep no owner, so they can neither move nor count as anyone's. */
async function moveAssets(ctx: ProjectionContext, nftIds: string[], ownerAddress: string): Promise<void> {
  for (const nftId of nftIds) {
    const asset = await ctx.get<AssetDoc>(ASSETS, nftId);
    if (!asset || asset.burned) continue;
    asset.ownerAddress = ownerAddress;
    ctx.put(ASSETS, asset);
  }
}

async function burnToken(ctx: ProjectionContext, tx: Transaction, sequence: number, nftId: string): Promise<void> {
  ctx.put(BURNS, { ...ledgerRecord(ctx.block, tx, sequence), nftId } satisfies BurnDoc);
  const burned = await ctx.get<AssetDoc>(ASSETS, nftId);
  if (!burned || burned.burned) return;
  ctx.put(ASSETS, { ...burned, burned: true, ownerAddress: null });
  await changeSupply(ctx, burned.collectionId, { burned: 1 });
}

/** The auction's NFTs go to the bidder; the exchange step has already stored both documents. */
async function acceptTrade(ctx: ProjectionContext, { auctionId, bidId }: PayloadOf<typeof acceptTradeTransaction>['nftAcceptTrade']): Promise<void> {
  const auction = await ctx.get<AuctionDoc>(STORE_COLLECTIONS.auctions, auctionId);
  const bid = await ctx.get<BidDoc>(STORE_COLLECTIONS.bids, bidId);
  if (!auction || !bid) return;
  await moveAssets(ctx, auction.nftIds, bid.bidderAddress);
}

/** Collections, assets, burns and ownership, including ownership moved by accepted trades. */
export const createBasePart: NftProjectionPartFactory = ({ networkVersion }) => ({
  collections: [
    {
      name: COLLECTIONS,
      indexes: [
        ...ledgerRecordIndexes(['name', 'maximumSupply', 'registrantAddress']),
        ...ledgerSortIndexes(['name', 'maximumSupply']),
        SEARCH_FORM_INDEX,
      ],
    },
    { name: ASSETS, indexes: [...ledgerRecordIndexes(['collectionId', 'ownerAddress']), ...ledgerSortIndexes([]), SEARCH_FORM_INDEX] },
    { name: BURNS, indexes: [...ledgerRecordIndexes([]), ...ledgerSortIndexes([])] },
  ],
  async applyTransaction(ctx, tx, sequence) {
    const payloadOf = <Payload>(schema: TransactionSchema<{ asset: Payload }>) => parseTransaction(schema, ctx.block, tx, sequence).asset;
    if (tx.typeGroup === NFT_EXCHANGE_TYPE_GROUP) {
      if (tx.type === NftExchangeType.acceptTrade) await acceptTrade(ctx, payloadOf(acceptTradeTransaction).nftAcceptTrade);
      return;
    }
    if (tx.typeGroup !== NFT_BASE_TYPE_GROUP) return;
    if (tx.type === NftBaseType.collection) registerCollection(ctx, tx, sequence, networkVersion, payloadOf(collectionTransaction).nftCollection);
    else if (tx.type === NftBaseType.token) await mintToken(ctx, tx, sequence, networkVersion, payloadOf(tokenTransaction).nftToken);
    else if (tx.type === NftBaseType.transfer) {
      const { nftIds, recipientId } = payloadOf(transferTransaction).nftTransfer;
      await moveAssets(ctx, nftIds, recipientId);
    } else if (tx.type === NftBaseType.burn) await burnToken(ctx, tx, sequence, payloadOf(burnTransaction).nftBurn.nftId);
  },
});
