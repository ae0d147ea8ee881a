import { baseWalletReader, LEDGER_ORDER, STORE_COLLECTIONS, type AuctionDoc } from '@ledger-api/nft-read-model';
import type { Store } from '@ledger-api/store';
import { bidsByAuctionReader } from '../bids/bids-by-auction';
import type { ExchangeWallet } from './schema';

/** The exchange form of a wallet: its base holdings plus its active auctions and their active bids. */
export function exchangeWalletReader(store: Store) {
  const base = baseWalletReader(store);
  const auctions = store.collection<AuctionDoc>(STORE_COLLECTIONS.auctions);
  const bidsByAuction = bidsByAuctionReader(store);

  async function activeAuctions(address: string): Promise<ExchangeWallet['nft']['exchange']['auctions']> {
    const active = await auctions.find({ sellerAddress: { $eq: address }, status: { $eq: 'active' } }, { sort: LEDGER_ORDER });
    const activeBids = await bidsByAuction(
      active.map((auction) => auction._id),
      ['active'],
    );
    return Object.fromEntries(
      active.map((auction) => [
        auction._id,
        { nftId: auction.nftIds[0], nftIds: auction.nftIds, bids: (activeBids.get(auction._id) ?? []).map((bid) => bid._id) },
      ]),
    );
  }

  return async function exchangeWallet(address: string): Promise<ExchangeWallet> {
    const [{ publicKey, nft }, walletAuctions] = await Promise.all([base.baseWallet(address), activeAuctions(address)]);
    return {
      address,
      ...(publicKey !== undefined && { publicKey }),
      nft: {
        base: { collections: nft.collections, tokenIds: Object.fromEntries(nft.assetsIds.map((nftId) => [nftId, {}])) },
        exchange: { auctions: walletAuctions },
      },
    };
  };
}
