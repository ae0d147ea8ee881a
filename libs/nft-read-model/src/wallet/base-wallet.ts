import type { Store } from '@ledger-api/store';
import type { z } from 'zod';
import type { AssetDoc, CollectionDoc } from '../base/documents';
import { LEDGER_ORDER } from '../records/ledger-record';
import { STORE_COLLECTIONS } from '../records/store-collections';
import { publicKeysByAddress } from './public-keys';
import type { baseWalletResource, walletCollectionsResource } from './schema';

export type WalletCollections = z.infer<typeof walletCollectionsResource>;
export type BaseWallet = z.infer<typeof baseWalletResource>;

/** What a wallet holds in the NFT base area, read from the shared NFT read model. */
export function baseWalletReader(store: Store) {
  const collections = store.collection<CollectionDoc>(STORE_COLLECTIONS.collections);
  const assets = store.collection<AssetDoc>(STORE_COLLECTIONS.assets);

  /** Every collection the wallet registered, with live supply and maximum supply net of burns. */
  async function registeredCollections(address: string): Promise<WalletCollections> {
    const registered = await collections.find({ registrantAddress: { $eq: address } }, { sort: LEDGER_ORDER });
    return Object.fromEntries(
      registered.map((collection) => [
        collection._id,
        {
          currentSupply: collection.currentSupply,
          nftCollectionAsset: {
            name: collection.name,
            description: collection.description,
            maximumSupply: collection.maximumSupply - collection.burnedCount,
            jsonSchema: collection.jsonSchema,
          },
        },
      ]),
    );
  }

  /** Ids of the assets the wallet owns now, in ledger order. */
  async function ownedAssetIds(address: string): Promise<string[]> {
    const owned = await assets.find({ ownerAddress: { $eq: address } }, { sort: LEDGER_ORDER });
    return owned.map((asset) => asset._id);
  }

  async function publicKeyOf(address: string): Promise<string | undefined> {
    return (await publicKeysByAddress(store, [address])).get(address);
  }

  async function baseWallet(address: string): Promise<BaseWallet> {
    const [publicKey, registered, assetsIds] = await Promise.all([publicKeyOf(address), registeredCollections(address), ownedAssetIds(address)]);
    return { address, ...(publicKey !== undefined && { publicKey }), nft: { collections: registered, assetsIds } };
  }

  return { registeredCollections, ownedAssetIds, publicKeyOf, baseWallet };
}
