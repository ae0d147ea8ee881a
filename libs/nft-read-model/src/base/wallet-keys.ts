import type { NftProjectionPartFactory } from '../records/projection-part';
import { STORE_COLLECTIONS } from '../records/store-collections';
import type { WalletKeyDoc } from './documents';

/**
 * Owners are stored as addresses; a wallet's public key becomes known with the
 * first transaction it signs, of any type group, and is looked up at read time.
 */
export const createWalletKeysPart: NftProjectionPartFactory = (wallets) => ({
  collections: [{ name: STORE_COLLECTIONS.wallets, indexes: [] }],
  // Every transaction names its sender, but no listed record changes for it alone.
  projects: () => false,
  async applyTransaction(ctx, tx) {
    const publicKey = wallets.shared(tx.senderPublicKey.toLowerCase());
    const address = wallets.addressOf(publicKey);
    if (await ctx.get<WalletKeyDoc>(STORE_COLLECTIONS.wallets, address)) return;
    ctx.put(STORE_COLLECTIONS.wallets, { _id: address, publicKey } satisfies WalletKeyDoc);
  },
});
