import type { ProjectionContext, Transaction } from '@ledger-api/ledger';
import type { CollectionSpec, Doc } from '@ledger-api/store';
import type { WalletNames } from './wallet-names';

export interface NftProjectionOptions {
  /** Network version byte for address derivation (NETWORK_VERSION). */
  networkVersion: number;
}

/** One step of the NFT projection (wallet keys, exchange, base): its collections and its effect per transaction. */
export interface NftProjectionPart {
  readonly collections: CollectionSpec[];
  /** Whether the part changes records the area lists for this transaction (never, for a part whose lists it does not serve). */
  projects(tx: Transaction): boolean;
  /** Nothing at all (no promise) for a transaction the part has nothing to do with: most transactions, for most parts. */
  applyTransaction(ctx: ProjectionContext, tx: Transaction, sequence: number): Promise<void> | undefined;
}

/**
 * Every part of one projection shares its wallet names. `listed`: the store
 * serves the part's lists, so its collections carry every list index; without
 * it they carry only what the other area's lookups read.
 */
export type NftProjectionPartFactory = (wallets: WalletNames, listed: boolean) => NftProjectionPart;

/** The NFT lists an area serves from its store: the base area's, the exchange area's, or both. */
export type NftListing = 'base' | 'exchange' | 'all';

/**
 * The context as a part whose lists the area does not serve sees it: writes
 * to collections it does not declare, which nothing in the area reads, are
 * left out of the store, and of a collection named in `keptMembers` only
 * those members of each document are kept. The names are gathered once, the
 * view made per transaction.
 */
export function writingOnly(
  collections: readonly CollectionSpec[],
  keptMembers: Readonly<Record<string, readonly string[]>> = {},
): (ctx: ProjectionContext) => ProjectionContext {
  const kept = new Set(collections.map((spec) => spec.name));
  const members = new Map(Object.entries(keptMembers));
  const stored = (collection: string, doc: Doc) => {
    const names = members.get(collection);
    return names ? membersOf(doc, names) : doc;
  };
  return (ctx) => ({
    block: ctx.block,
    get: (collection, id) => ctx.get(collection, id),
    put: (collection, doc) => (kept.has(collection) ? ctx.put(collection, stored(collection, doc)) : undefined),
    remove: (collection, id) => (kept.has(collection) ? ctx.remove(collection, id) : undefined),
  });
}

/** The document with its id and the named members it has, and nothing else. */
function membersOf(doc: Doc, names: readonly string[]): Doc {
  const kept: Doc = { _id: doc._id };
  for (const name of names) if (Object.hasOwn(doc, name)) kept[name] = doc[name];
  return kept;
}
