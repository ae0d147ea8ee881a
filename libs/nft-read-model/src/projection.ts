import type { Projection } from '@ledger-api/ledger';
import { createBasePart } from './base/projection';
import { createWalletKeysPart } from './base/wallet-keys';
import { createExchangePart } from './exchange/projection';
import type { NftProjectionOptions } from './records/projection-part';

export interface NftProjectionConfig extends NftProjectionOptions {
  /** The area whose store this projection fills (nft-base or nft-exchange). */
  area: string;
}

/**
 * The one NFT read model both NFT areas build. Per transaction the steps run
 * in this order: wallet keys, exchange, base, so an accepted trade's base step
 * reads the auction and bid the exchange step stored.
 */
export function createNftProjection({ area, ...options }: NftProjectionConfig): Projection {
  const parts = [createWalletKeysPart(options), createExchangePart(options), createBasePart(options)];
  return {
    area,
    collections: parts.flatMap((part) => part.collections),
    async applyTransaction(ctx, tx, sequence) {
      for (const part of parts) await part.applyTransaction(ctx, tx, sequence);
    },
  };
}
