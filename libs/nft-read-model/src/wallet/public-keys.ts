import type { Store } from '@ledger-api/store';
import type { WalletKeyDoc } from '../base/documents';
import { STORE_COLLECTIONS } from '../records/store-collections';

/** Public keys of the addresses the ledger has revealed, in one lookup; unknown ones are absent. */
export async function publicKeysByAddress(store: Store, addresses: Iterable<string>): Promise<Map<string, string>> {
  const wanted = [...new Set(addresses)];
  if (wanted.length === 0) return new Map();
  const wallets = await store.collection<WalletKeyDoc>(STORE_COLLECTIONS.wallets).find({ _id: { $in: wanted } });
  return new Map(wallets.map((wallet) => [wallet._id, wallet.publicKey]));
}
