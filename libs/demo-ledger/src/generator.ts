import { writeFileSync } from 'node:fs';
import { MAINNET_VERSION, type LedgerEvent } from '@ledger-api/ledger';
import { BlockBuilder, GENESIS_PREVIOUS_BLOCK, orphanBranch, planReorganisations, scheduledAction, type ChainSettings } from './chain';
import { exchangeActions } from './exchange';
import { scheduleGuardian } from './guardian';
import { nftActions, scheduleCollections } from './nft';
import { paymentActions } from './payments';
import { Random } from './random';
import { summarizeLedger, type DemoLedgerSummary } from './summary';
import { WalletPool } from './wallets';
import { createWorld } from './world';

export interface DemoLedgerOptions {
  /** The same seed always gives the same ledger, byte for byte. Default 1. */
  seed?: number;
  /** Blocks in the final history. Default 2000; at least 50. */
  blockCount?: number;
  /** Address version byte, also the transactions' `network`. Default 23 (mainnet). */
  networkVersion?: number;
}

export const DEFAULT_DEMO_SEED = 1;
const DEFAULT_BLOCK_COUNT = 2000;
const MIN_BLOCK_COUNT = 50;
const ASSETS_PER_BLOCK = 1.5;

/**
 * A realistic ledger in ledger order: Guardian setup, NFT collections and their
 * assets changing hands, auctions in every state, payments, and a few
 * reorganisations. Every transaction is valid against the final history before it.
 */
export function generateDemoLedger(options: DemoLedgerOptions = {}): LedgerEvent[] {
  const settings = resolveSettings(options);
  const random = new Random(settings.seed);
  const wallets = new WalletPool(settings.seed, settings.networkVersion);
  const schedule = [...scheduleGuardian(random, wallets, settings.blockCount), ...scheduleCollections(random, wallets, settings.blockCount)];
  const builder = new BlockBuilder(random, wallets, settings, [
    scheduledAction(schedule),
    ...nftActions(Math.round(settings.blockCount * ASSETS_PER_BLOCK)),
    ...exchangeActions(),
    ...paymentActions(),
  ]);
  const reorganisations = planReorganisations(random, settings.blockCount);

  const world = createWorld();
  const events: LedgerEvent[] = [];
  let tip = GENESIS_PREVIOUS_BLOCK;
  for (let height = 1; height <= settings.blockCount; height++) {
    const depth = reorganisations.get(height);
    if (depth) events.push(...orphanBranch(builder, world, height, depth, tip));
    const block = builder.build(world, height, tip);
    events.push({ event: 'block.applied', block });
    tip = block.id;
  }
  return events;
}

/** Writes the demo ledger as JSON Lines, one event per line. */
export function writeDemoLedger(path: string, options: DemoLedgerOptions = {}): DemoLedgerSummary {
  const events = generateDemoLedger(options);
  writeFileSync(path, events.map((entry) => JSON.stringify(entry) + '\n').join(''));
  return summarizeLedger(events);
}

function resolveSettings(options: DemoLedgerOptions): ChainSettings {
  const settings = {
    seed: options.seed ?? DEFAULT_DEMO_SEED,
    blockCount: options.blockCount ?? DEFAULT_BLOCK_COUNT,
    networkVersion: options.networkVersion ?? MAINNET_VERSION,
  };
  if (!Number.isSafeInteger(settings.seed)) throw new RangeError(`seed must be an integer, got ${settings.seed}`);
  if (!Number.isInteger(settings.blockCount) || settings.blockCount < MIN_BLOCK_COUNT) {
    throw new RangeError(`blockCount must be an integer of at least ${MIN_BLOCK_COUNT}, got ${settings.blockCount}`);
  }
  if (!Number.isInteger(settings.networkVersion) || settings.networkVersion < 0 || settings.networkVersion > 255) {
    throw new RangeError(`networkVersion must be a byte, got ${settings.networkVersion}`);
  }
  return settings;
}
