import type { Doc } from '@ledger-api/store';
import type { LedgerRecord } from '../records/ledger-record';

export interface CollectionDoc extends LedgerRecord {
  name: string;
  description: string;
  /** As registered; the wallet form shows it minus burnedCount. */
  maximumSupply: number;
  jsonSchema: Record<string, unknown>;
  allowedIssuers?: string[];
  metadata?: Record<string, unknown>;
  /** Address of the sender that registered the collection. */
  registrantAddress: string;
  /** Live (unburned) assets of the collection. */
  currentSupply: number;
  burnedCount: number;
  /** collectionSearchForm of the searchable fields, for collection searches; never shown. */
  searchForm: Record<string, unknown>;
}

export interface AssetDoc extends LedgerRecord {
  collectionId: string;
  attributes: Record<string, unknown>;
  /** Address of the current owner; null once burned. */
  ownerAddress: string | null;
  burned: boolean;
  /** searchForm of the attributes, for asset searches; never shown. */
  searchForm: Record<string, unknown>;
}

export interface BurnDoc extends LedgerRecord {
  nftId: string;
}

/** A transfer as its transaction names it, whether or not its assets could move. */
export interface TransferDoc extends LedgerRecord {
  nftIds: string[];
  /** The recipient's address, as the transaction gives it. */
  recipientId: string;
}

/** A wallet whose public key the ledger has revealed, keyed by its address. */
export interface WalletKeyDoc extends Doc {
  publicKey: string;
}
