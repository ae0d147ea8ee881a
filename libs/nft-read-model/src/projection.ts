import type { Projection } from '@ledger-api/ledger';
import { createBasePart } from './base/projection';
import { createWalletKeysPart } from './base/wallet-keys';
import { createExchangePart } from './exchange/projection';
import type { NftListing, NftProjectionOptions } from './records/projection-part';
import { WalletNames } from './records/wallet-names';

export interface NftProjectionConfig extends NftProjectionOptions {
  /** The area whose store this projection fills (nft-base or nft-exchange). */
  area: string;
  /**
   * The lists the area serves (default: all). The store keeps those lists'
   * collections with every index, and of the other part's collections only
   * those the area reads, with the indexes its reads use: a collection or an
   * index the area never reads would cost every write and its memory for nothing.
   */
  lists?: NftListing;
}

/**
 * The one NFT read model both NFT areas build. Per transaction the steps run
 * in this order: wallet keys, exchange, base, so an accepted trade's base step
 * reads the auction and bid the exchange step stored.
 */
export function createNftProjection({ area, networkVersion, lists = 'all' }: NftProjectionConfig): Projection {
  const wallets = new WalletNames(networkVersion);
  const parts = [createWalletKeysPart(wallets, true), createExchangePart(wallets, lists !== 'base'), createBasePart(wallets, lists !== 'exchange')];
  return {
    area,
    collections: parts.flatMap((part) => part.collections),
    projects: (tx) => parts.some((part) => part.projects(tx)),
    async applyTransaction(ctx, tx, sequence) {
      for (const part of parts) {
        const applying = part.applyTransaction(ctx, tx, sequence);
        if (applying) await applying;
      }
    },
  };
}
