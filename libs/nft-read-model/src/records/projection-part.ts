import type { ProjectionContext, Transaction } from '@ledger-api/ledger';
import type { CollectionSpec } from '@ledger-api/store';

export interface NftProjectionOptions {
  /** Network version byte for address derivation (NETWORK_VERSION). */
  networkVersion: number;
}

/** One step of the NFT projection (wallet keys, exchange, base): its collections and its effect per transaction. */
export interface NftProjectionPart {
  readonly collections: CollectionSpec[];
  applyTransaction(ctx: ProjectionContext, tx: Transaction, sequence: number): Promise<void>;
}

export type NftProjectionPartFactory = (options: NftProjectionOptions) => NftProjectionPart;
