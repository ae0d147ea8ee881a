import { addressFromPublicKey } from '@ledger-api/ledger';
import {
  baseWalletReader,
  LEDGER_RECORD_LIST,
  publicKeysByAddress,
  STORE_COLLECTIONS,
  type AssetDoc,
  type AuctionLookup,
  type CollectionDoc,
} from '@ledger-api/nft-read-model';
import type { AreaDeps } from '@ledger-api/runtime';
import { findByIds, findPage, type Filter, type ListOrder, type Page, type PageRequest, type ReadCollection, type Store } from '@ledger-api/store';
import { containmentFilter } from '../search/containment';
import type { AssetWithOwnerKey } from './presenter';
import { walletAssetsList } from './query-config';

export interface WalletAssetsQuery extends PageRequest {
  inAuction: boolean;
  inExpiredAuction: boolean;
}

/** The assets with their owners' public keys, where the ledger has revealed them: one query for all the keys. */
async function withOwnerKeys(store: Store, docs: AssetDoc[]): Promise<AssetWithOwnerKey[]> {
  const keys = await publicKeysByAddress(
    store,
    docs.flatMap((doc) => doc.ownerAddress ?? []),
  );
  return docs.map((doc) => ({ ...doc, ownerKey: doc.ownerAddress === null ? undefined : keys.get(doc.ownerAddress) }));
}

/** NFTs of the seller's active auctions; without `includeExpired` only those whose expiration height is above `height`. */
async function auctionedNftIds(store: Store, sellerAddress: string, includeExpired: boolean, height: number): Promise<string[]> {
  const filter: Filter = { status: { $eq: 'active' satisfies AuctionLookup['status'] }, sellerAddress: { $eq: sellerAddress } };
  if (!includeExpired) filter.expirationHeight = { $gt: height };
  const auctions = await store.collection<AuctionLookup>(STORE_COLLECTIONS.auctions).find(filter);
  return auctions.flatMap((auction) => auction.nftIds);
}

/** A page of assets with their owners' keys. */
async function assetPage(
  store: Store,
  assets: ReadCollection<AssetDoc>,
  filter: Filter,
  query: PageRequest,
  list: ListOrder,
): Promise<Page<AssetWithOwnerKey>> {
  const found = await findPage(assets, filter, query, list);
  return { ...found, items: await withOwnerKeys(store, found.items) };
}

export function assetsRepository(store: Store, { networkVersion }: Pick<AreaDeps, 'networkVersion'>) {
  const assets = store.collection<AssetDoc>(STORE_COLLECTIONS.assets);
  const collections = store.collection<CollectionDoc>(STORE_COLLECTIONS.collections);
  const wallets = baseWalletReader(store);
  const page = (filter: Filter, query: PageRequest, list: ListOrder = LEDGER_RECORD_LIST) => assetPage(store, assets, filter, query, list);
  return {
    list: (query: PageRequest) => page({}, query),
    search: (body: Record<string, unknown>, query: PageRequest) => page(containmentFilter(body), query),
    /** Null for an unknown collection. */
    async ofCollection(collectionId: string, query: PageRequest): Promise<Page<AssetWithOwnerKey> | null> {
      if (!(await collections.findById(collectionId))) return null;
      return page({ collectionId: { $eq: collectionId } }, query);
    },
    /** `height` is the ledger height the answer is read at: auctions expire by it. */
    async ownedBy(publicKey: string, query: WalletAssetsQuery, height: number): Promise<Page<AssetWithOwnerKey>> {
      const ownerAddress = addressFromPublicKey(publicKey, networkVersion);
      const filter: Filter = { ownerAddress: { $eq: ownerAddress } };
      if (query.inAuction) filter._id = { $in: await auctionedNftIds(store, ownerAddress, query.inExpiredAuction, height) };
      return page(filter, query, walletAssetsList);
    },
    async findById(id: string): Promise<AssetWithOwnerKey | null> {
      const asset = await assets.findById(id);
      return asset && (await withOwnerKeys(store, [asset]))[0];
    },
    /** The assets of the ids that exist, by id, with their owners' keys: one query for the assets, one for the keys. */
    async findByIds(ids: string[]): Promise<Map<string, AssetWithOwnerKey>> {
      const found = await withOwnerKeys(store, [...(await findByIds(assets, ids)).values()]);
      return new Map(found.map((asset) => [asset._id, asset]));
    },
    /** The base-form wallet of the current owner; null for an unknown or burned asset. */
    async ownerWallet(id: string) {
      const asset = await assets.findById(id);
      return asset?.ownerAddress ? wallets.baseWallet(asset.ownerAddress) : null;
    },
  };
}
