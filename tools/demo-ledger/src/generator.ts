import { closeSync, openSync, writeSync } from 'node:fs';
import { MAINNET_VERSION, type LedgerEvent } from '@ledger-api/ledger';
import { BlockBuilder, GENESIS_PREVIOUS_BLOCK, orphanBranch, planReorganisations, scheduledAction, type ChainSettings } from './chain';
import { BLUEPRINT_SUPPLY } from './collections';
import { exchangeActions } from './exchange';
import { scheduleGuardian } from './guardian';
import { mint, nftActions, scheduleCollections } from './nft';
import { paymentActions } from './payments';
import { Random } from './random';
import { LedgerSummarizer, type DemoLedgerSummary } from './summary';
import { WalletPool } from './wallets';
import { WorldState } from './world';

export interface DemoLedgerOptions {
  /** The same seed always gives the same ledger, byte for byte. Default 1. */
  seed?: number;
  /** Blocks in the final history. Default 2000; at least 50. */
  blockCount?: number;
  /**
   * Assets minted over the final history. Default 1.5 per block, up to the
   * 104,175 the demo collections hold; a larger count registers the name
   * service collection with the supply it needs.
   */
  assetCount?: number;
  /** Address version byte, also the transactions' `network`. Default 23 (mainnet). */
  networkVersion?: number;
}

export const DEFAULT_DEMO_SEED = 1;
const DEFAULT_BLOCK_COUNT = 2000;
const MIN_BLOCK_COUNT = 50;
const DEFAULT_ASSETS_PER_BLOCK = 1.5;
/** Lines are written in pieces of about this many characters. */
const WRITE_CHUNK = 1 << 22;

/**
 * A realistic ledger in ledger order: Guardian setup, NFT collections and their
 * assets changing hands, auctions in every state, payments, and a few
 * reorganisations. Every transaction is valid against the final history before
 * it. Events come one at a time, so a ledger of any length is produced in the
 * memory its world state takes; each costs about the same, however many came before.
 */
export function demoLedgerEvents(options: DemoLedgerOptions = {}): Generator<LedgerEvent> {
  return events(resolveSettings(options));
}

function* events(settings: ChainSettings): Generator<LedgerEvent> {
  const random = new Random(settings.seed);
  const wallets = new WalletPool(settings.seed, settings.networkVersion);
  const schedule = [
    ...scheduleGuardian(random, wallets, settings.blockCount),
    ...scheduleCollections(random, wallets, settings.blockCount, settings.assetCount),
  ];
  const actions = [scheduledAction(schedule), ...nftActions(), ...exchangeActions(), ...paymentActions()];
  const builder = new BlockBuilder(random, wallets, settings, actions, mint);
  const reorganisations = planReorganisations(random, settings.blockCount);
  const world = new WorldState();
  let tip = GENESIS_PREVIOUS_BLOCK;
  for (let height = 1; height <= settings.blockCount; height++) {
    const depth = reorganisations.get(height);
    if (depth) yield* orphanBranch(builder, world, height, depth, tip);
    const block = builder.build(world, height, tip);
    yield { event: 'block.applied', block };
    tip = block.id;
  }
}

/** The whole demo ledger in memory; see demoLedgerEvents. */
export function generateDemoLedger(options: DemoLedgerOptions = {}): LedgerEvent[] {
  return [...demoLedgerEvents(options)];
}

/** Writes the demo ledger as JSON Lines, one event per line, as it is generated. */
export function writeDemoLedger(path: string, options: DemoLedgerOptions = {}): DemoLedgerSummary {
  const generated = demoLedgerEvents(options);
  const summarizer = new LedgerSummarizer();
  const file = openSync(path, 'w');
  try {
    let pending = '';
    for (const entry of generated) {
      summarizer.add(entry);
      pending += `${JSON.stringify(entry)}\n`;
      if (pending.length >= WRITE_CHUNK) {
        writeSync(file, pending);
        pending = '';
      }
    }
    writeSync(file, pending);
  } finally {
    closeSync(file);
  }
  return summarizer.summary();
}

function resolveSettings(options: DemoLedgerOptions): ChainSettings {
  const blockCount = options.blockCount ?? DEFAULT_BLOCK_COUNT;
  const settings = {
    seed: options.seed ?? DEFAULT_DEMO_SEED,
    blockCount,
    assetCount: options.assetCount ?? Math.min(Math.round(blockCount * DEFAULT_ASSETS_PER_BLOCK), BLUEPRINT_SUPPLY),
    networkVersion: options.networkVersion ?? MAINNET_VERSION,
  };
  if (!Number.isSafeInteger(settings.seed)) throw new RangeError(`seed must be an integer, got ${settings.seed}`);
  if (!Number.isInteger(settings.blockCount) || settings.blockCount < MIN_BLOCK_COUNT) {
    throw new RangeError(`blockCount must be an integer of at least ${MIN_BLOCK_COUNT}, got ${settings.blockCount}`);
  }
  if (!Number.isSafeInteger(settings.assetCount) || settings.assetCount < 0) {
    throw new RangeError(`assetCount must be a non-negative integer, got ${settings.assetCount}`);
  }
  if (!Number.isInteger(settings.networkVersion) || settings.networkVersion < 0 || settings.networkVersion > 255) {
    throw new RangeError(`networkVersion must be a byte, got ${settings.networkVersion}`);
  }
  return settings;
}
