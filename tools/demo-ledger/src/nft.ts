import type { Transaction } from '@ledger-api/ledger';
import { NFT_BASE_TYPE_GROUP, NftBaseType } from '@ledger-api/nft-read-model';
import { BLUEPRINT_SUPPLY, COLLECTION_BLUEPRINTS, type CollectionBlueprint } from './collections';
import { heightAt } from './context';
import type { DemoAction, DemoContext, ScheduledEvent } from './context';
import type { Random } from './random';
import type { WalletPool } from './wallets';
import { pickOwnerWithFreeAssets } from './world';

const MAX_TRANSFER_ITEMS = 10;
/** Share of mints that go straight to another wallet, and of those, to a wallet that never signs. */
const MINT_TO_OTHER_CHANCE = 0.55;
const SILENT_RECIPIENT_CHANCE = 0.08;

/** Each blueprint is registered by a studio at its launch height, naming its issuers if it restricts them. */
export function scheduleCollections(random: Random, wallets: WalletPool, blockCount: number, assetCount: number): ScheduledEvent[] {
  return COLLECTION_BLUEPRINTS.map((blueprint, index) => {
    const registrant = wallets.studios[index % wallets.studios.length];
    const others = wallets.traders.filter((wallet) => wallet !== registrant);
    const allowed = blueprint.extraIssuers > 0 ? [registrant, ...random.sample(others, blueprint.extraIssuers)] : undefined;
    const maximumSupply = supplyFor(blueprint, assetCount);
    const nftCollection = {
      name: blueprint.name,
      description: blueprint.description,
      maximumSupply,
      jsonSchema: blueprint.jsonSchema,
      ...(allowed && { allowedIssuers: allowed.map((wallet) => wallet.publicKey) }),
      ...(blueprint.metadata && { metadata: blueprint.metadata }),
    };
    return {
      height: heightAt(blueprint.launchAt, blockCount),
      run: (ctx: DemoContext) => {
        const asset = { nftCollection };
        const tx = ctx.transaction({ sender: registrant.index, typeGroup: NFT_BASE_TYPE_GROUP, type: NftBaseType.collection, asset });
        ctx.world.registerCollection({
          id: tx.id,
          blueprint: index,
          issuers: (allowed ?? [registrant]).map((wallet) => wallet.index),
          maximumSupply,
          currentSupply: 0,
          minted: 0,
        });
        return tx;
      },
    };
  });
}

/** An open-ended collection grows to hold every asset the ledger is asked for that the others cannot. */
function supplyFor(blueprint: CollectionBlueprint, assetCount: number): number {
  if (!blueprint.openEnded) return blueprint.maximumSupply;
  return Math.max(blueprint.maximumSupply, assetCount - (BLUEPRINT_SUPPLY - blueprint.maximumSupply));
}

/** Transfers and burns of owned assets; mints are paced by the block builder (see mint). */
export function nftActions(): DemoAction[] {
  return [
    { weight: () => 9, run: transfer },
    { weight: () => 2.5, run: burn },
  ];
}

/** A mint into a collection with supply left, weighted by the blueprints' shares; null when every collection is full. */
export function mint(ctx: DemoContext): Transaction | null {
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
  ctx.world.mint(collection, tx.id, recipient);
  return tx;
}

function mintRecipient(ctx: DemoContext, sender: number): number {
  if (!ctx.random.chance(MINT_TO_OTHER_CHANCE)) return sender;
  const pool = ctx.random.chance(SILENT_RECIPIENT_CHANCE) ? ctx.wallets.silent : ctx.wallets.traders;
  return ctx.random.pick(pool.filter((wallet) => wallet.index !== sender)).index;
}

function transfer(ctx: DemoContext): Transaction | null {
  const picked = pickOwnerWithFreeAssets(ctx.world, ctx.random, ctx.wallets.traderIndexes);
  if (!picked) return null;
  const { owner, free } = picked;
  // Most transfers move one asset; a few move a batch, up to the protocol's limit.
  const batch = free.size > 1 && ctx.random.chance(0.2);
  const count = batch ? ctx.random.int(2, Math.min(MAX_TRANSFER_ITEMS, free.size)) : 1;
  const assets = ctx.random.drawDistinct(free, count);
  const recipient = ctx.random.pick(ctx.wallets.all.filter((wallet) => wallet.index !== owner));
  const nftTransfer = { nftIds: assets.map((asset) => asset.id), recipientId: recipient.address };
  const tx = ctx.transaction({ sender: owner, typeGroup: NFT_BASE_TYPE_GROUP, type: NftBaseType.transfer, asset: { nftTransfer } });
  for (const asset of assets) ctx.world.transfer(asset, recipient.index);
  return tx;
}

function burn(ctx: DemoContext): Transaction | null {
  const picked = pickOwnerWithFreeAssets(ctx.world, ctx.random, ctx.wallets.traderIndexes);
  if (!picked) return null;
  const asset = ctx.random.draw(picked.free);
  const nftBurn = { nftId: asset.id };
  const tx = ctx.transaction({ sender: picked.owner, typeGroup: NFT_BASE_TYPE_GROUP, type: NftBaseType.burn, asset: { nftBurn } });
  ctx.world.burn(asset);
  return tx;
}
