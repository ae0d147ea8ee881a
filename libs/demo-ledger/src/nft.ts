import type { Transaction } from '@ledger-api/ledger';
import { NFT_BASE_TYPE_GROUP, NftBaseType } from '@ledger-api/nft-read-model';
import { COLLECTION_BLUEPRINTS } from './collections';
import { heightAt } from './context';
import type { DemoAction, DemoContext, ScheduledEvent } from './context';
import type { Random } from './random';
import type { WalletPool } from './wallets';
import { giveAsset, pickOwnerWithFreeAssets, type CollectionState } from './world';

const MAX_TRANSFER_ITEMS = 10;
/** Share of mints that go straight to another wallet, and of those, to a wallet that never signs. */
const MINT_TO_OTHER_CHANCE = 0.55;
const SILENT_RECIPIENT_CHANCE = 0.08;

/** Each blueprint is registered by a studio at its launch height, naming its issuers if it restricts them. */
export function scheduleCollections(random: Random, wallets: WalletPool, blockCount: number): ScheduledEvent[] {
  return COLLECTION_BLUEPRINTS.map((blueprint, index) => {
    const registrant = wallets.studios[index % wallets.studios.length];
    const others = wallets.traders.filter((wallet) => wallet !== registrant);
    const allowed = blueprint.extraIssuers > 0 ? [registrant, ...random.sample(others, blueprint.extraIssuers)] : undefined;
    const nftCollection = {
      name: blueprint.name,
      description: blueprint.description,
      maximumSupply: blueprint.maximumSupply,
      jsonSchema: blueprint.jsonSchema,
      ...(allowed && { allowedIssuers: allowed.map((wallet) => wallet.publicKey) }),
      ...(blueprint.metadata && { metadata: blueprint.metadata }),
    };
    return {
      height: heightAt(blueprint.launchAt, blockCount),
      run: (ctx: DemoContext) => {
        const asset = { nftCollection };
        const tx = ctx.transaction({ sender: registrant.index, typeGroup: NFT_BASE_TYPE_GROUP, type: NftBaseType.collection, asset });
        ctx.world.collections.set(tx.id, {
          id: tx.id,
          blueprint: index,
          issuers: (allowed ?? [registrant]).map((wallet) => wallet.index),
          maximumSupply: blueprint.maximumSupply,
          currentSupply: 0,
          minted: 0,
        });
        return tx;
      },
    };
  });
}

/** Mints until the ledger holds about `assetTarget` assets, plus transfers and burns of owned assets. */
export function nftActions(assetTarget: number): DemoAction[] {
  return [
    { weight: (ctx) => (ctx.world.assets.size < assetTarget ? 34 : 0), run: mint },
    { weight: () => 9, run: transfer },
    { weight: () => 2.5, run: burn },
  ];
}

function mint(ctx: DemoContext): Transaction | null {
  const open = [...ctx.world.collections.values()].filter((collection) => collection.currentSupply < collection.maximumSupply);
  const index = ctx.random.weightedIndex(open.map((collection) => COLLECTION_BLUEPRINTS[collection.blueprint].mintWeight));
  if (index < 0) return null;
  const collection = open[index];
  const sender = ctx.random.pick(collection.issuers);
  const recipient = mintRecipient(ctx, sender);
  const attributes = COLLECTION_BLUEPRINTS[collection.blueprint].attributes(ctx.random, collection.minted);
  const nftToken = {
    collectionId: collection.id,
    attributes,
    ...(recipient !== sender && { recipientId: ctx.wallets.get(recipient).address }),
  };
  const tx = ctx.transaction({ sender, typeGroup: NFT_BASE_TYPE_GROUP, type: NftBaseType.token, asset: { nftToken } });
  recordMint(ctx, collection, tx.id, recipient);
  return tx;
}

function mintRecipient(ctx: DemoContext, sender: number): number {
  if (!ctx.random.chance(MINT_TO_OTHER_CHANCE)) return sender;
  const pool = ctx.random.chance(SILENT_RECIPIENT_CHANCE) ? ctx.wallets.silent : ctx.wallets.traders;
  return ctx.random.pick(pool.filter((wallet) => wallet.index !== sender)).index;
}

function recordMint(ctx: DemoContext, collection: CollectionState, id: string, owner: number): void {
  const asset = { id, collectionId: collection.id, owner };
  ctx.world.assets.set(id, asset);
  giveAsset(ctx.world, asset, owner);
  collection.currentSupply++;
  collection.minted++;
}

function transfer(ctx: DemoContext): Transaction | null {
  const picked = pickOwnerWithFreeAssets(ctx.world, ctx.random, ctx.wallets.traderIndexes);
  if (!picked) return null;
  const { owner, free } = picked;
  // Most transfers move one asset; a few move a batch, up to the protocol's limit.
  const batch = free.length > 1 && ctx.random.chance(0.2);
  const count = batch ? ctx.random.int(2, Math.min(MAX_TRANSFER_ITEMS, free.length)) : 1;
  const assets = ctx.random.sample(free, count);
  const recipient = ctx.random.pick(ctx.wallets.all.filter((wallet) => wallet.index !== owner));
  const nftTransfer = { nftIds: assets.map((asset) => asset.id), recipientId: recipient.address };
  const tx = ctx.transaction({ sender: owner, typeGroup: NFT_BASE_TYPE_GROUP, type: NftBaseType.transfer, asset: { nftTransfer } });
  for (const asset of assets) giveAsset(ctx.world, asset, recipient.index);
  return tx;
}

function burn(ctx: DemoContext): Transaction | null {
  const picked = pickOwnerWithFreeAssets(ctx.world, ctx.random, ctx.wallets.traderIndexes);
  if (!picked) return null;
  const { owner, free } = picked;
  const asset = ctx.random.pick(free);
  const tx = ctx.transaction({ sender: owner, typeGroup: NFT_BASE_TYPE_GROUP, type: NftBaseType.burn, asset: { nftBurn: { nftId: asset.id } } });
  ctx.world.holdings.get(owner)!.delete(asset.id);
  const collection = ctx.world.collections.get(asset.collectionId)!;
  collection.currentSupply--;
  collection.maximumSupply--;
  return tx;
}
