import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseLedgerEvent, type Block, type LedgerEvent } from '@ledger-api/ledger';
import { NFT_BASE_TYPE_GROUP, NftBaseType } from '@ledger-api/nft-read-model';
import { auditSemantics, type SemanticAudit } from './audit/semantics';
import { auditStructure, type StructureAudit } from './audit/structure';
import { BLUEPRINT_SUPPLY } from './collections';
import { finalHistory } from './summary';
import { demoLedgerEvents, generateDemoLedger, summarizeLedger, writeDemoLedger } from './index';

const MAINNET = 23;
const serialize = (events: LedgerEvent[]) => events.map((entry) => JSON.stringify(entry)).join('\n');

describe('generateDemoLedger', () => {
  let events: LedgerEvent[];
  let structure: StructureAudit;
  let semantics: SemanticAudit;

  beforeAll(() => {
    events = generateDemoLedger();
    structure = auditStructure(events, MAINNET);
    semantics = auditSemantics(structure.history, MAINNET);
  });

  it('gives byte-identical output for the same seed and different output for another', () => {
    expect(serialize(generateDemoLedger({ seed: 1 }))).toBe(serialize(events));
    expect(serialize(generateDemoLedger({ seed: 2 }))).not.toBe(serialize(events));
  });

  it('is a well-formed chain: consecutive heights, chained ids, unique transaction ids, nonces per sender', () => {
    expect(structure.problems).toEqual([]);
    expect(structure.history).toHaveLength(2000);
    expect(structure.history[0].height).toBe(1);
  });

  it('has the intended size (bench:scale times its generation)', () => {
    const sizes = structure.history.map((block) => block.transactions.length);
    expect(Math.min(...sizes)).toBeGreaterThanOrEqual(1);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(20);
    expect(Math.max(...sizes)).toBeGreaterThanOrEqual(13);
    const bytes = Buffer.byteLength(serialize(events));
    expect(bytes).toBeGreaterThan(2_000_000);
    expect(bytes).toBeLessThan(12_000_000);
  });

  it('reorganises a few times, once two blocks deep', () => {
    expect(structure.reverts).toBeGreaterThanOrEqual(3);
    expect(structure.reorganisationDepths).toContain(1);
    expect(structure.reorganisationDepths).toContain(2);
  });

  it('only holds transactions the ledger would have accepted', () => {
    expect(semantics.problems).toEqual([]);
  });

  it('sets up Guardian groups and users, with later updates and references to missing groups', () => {
    expect(semantics.groups.size).toBe(10);
    expect(semantics.users.size).toBe(40);
    expect(semantics.updates.groups).toBeGreaterThan(0);
    expect(semantics.updates.users).toBeGreaterThan(0);
    const missing = [...semantics.users.values()].flat().filter((name) => !semantics.groups.has(name));
    expect(missing.length).toBeGreaterThan(0);
  });

  it('fills distinct collections with about 3000 assets, some sold out, some owned by silent wallets', () => {
    const collections = [...semantics.collections.values()];
    expect(collections.length).toBeGreaterThanOrEqual(6);
    expect(new Set(collections.map((collection) => JSON.stringify(collection.jsonSchema))).size).toBe(collections.length);
    expect(collections.some((collection) => collection.allowedIssuers)).toBe(true);
    expect(collections.some((collection) => collection.currentSupply === collection.maximumSupply)).toBe(true);
    expect(semantics.assets.size).toBeGreaterThanOrEqual(2900);
    expect([...semantics.assets.values()].some((asset) => asset.burned)).toBe(true);
    expect(semantics.silentOwners.size).toBeGreaterThan(0);
  });

  it('transfers assets, one or several at a time, in the final history and in reverted blocks', () => {
    const transfersIn = (blocks: Block[]) =>
      blocks.flatMap((block) => block.transactions.filter((tx) => tx.typeGroup === NFT_BASE_TYPE_GROUP && tx.type === NftBaseType.transfer));
    const kept = transfersIn(finalHistory(events));
    const keptIds = new Set(kept.map((tx) => tx.id));
    const applied = transfersIn(events.flatMap((entry) => (entry.event === 'block.applied' ? [entry.block] : [])));
    expect(kept.length).toBeGreaterThan(1000);
    expect(kept.some((tx) => tx.asset!.nftTransfer.nftIds.length > 1)).toBe(true);
    expect(applied.some((tx) => !keptIds.has(tx.id))).toBe(true);
  });

  it('carries amounts beyond 2^53', () => {
    expect(semantics.oversizedValues).toBeGreaterThanOrEqual(5);
  });

  it.each([1, 2, 3, 4])('ends, with seed %i, with auctions and bids in every state', (seed) => {
    const audit = seed === 1 ? semantics : auditSemantics(auditStructure(generateDemoLedger({ seed }), MAINNET).history, MAINNET);
    expect(audit.problems).toEqual([]);
    for (const count of Object.values(audit.auctions)) expect(count).toBeGreaterThan(0);
    for (const count of Object.values(audit.bids)) expect(count).toBeGreaterThan(0);
  });

  it('scales with blockCount and uses the given network version', () => {
    const small = generateDemoLedger({ seed: 5, blockCount: 300, networkVersion: 30 });
    const audit = auditStructure(small, 30);
    expect(audit.problems).toEqual([]);
    expect(audit.history).toHaveLength(300);
    expect(auditSemantics(audit.history, 30).problems).toEqual([]);
  });

  it('mints exactly the number of assets asked for, every one valid against the history before it', () => {
    const asked = generateDemoLedger({ seed: 6, blockCount: 300, assetCount: 1234 });
    const audit = auditStructure(asked, MAINNET);
    expect(audit.problems).toEqual([]);
    expect(summarizeLedger(asked).byType['9000/1']).toBe(1234);
    expect(auditSemantics(audit.history, MAINNET).problems).toEqual([]);
  });

  it('registers the name service with the supply a count beyond the demo collections needs', () => {
    const assetCount = 150_000;
    const nameService = () => {
      for (const entry of demoLedgerEvents({ blockCount: 50, assetCount })) {
        if (entry.event !== 'block.applied') continue;
        const registered = entry.block.transactions.find((tx) => tx.asset?.nftCollection?.name === 'Chain Name Service');
        if (registered) return registered.asset!.nftCollection;
      }
    };
    expect(nameService()).toMatchObject({ maximumSupply: assetCount - (BLUEPRINT_SUPPLY - 100_000) });
  });

  it('rejects options it cannot honour', () => {
    expect(() => generateDemoLedger({ assetCount: -1 })).toThrow(RangeError);
    expect(() => generateDemoLedger({ blockCount: 10 })).toThrow(RangeError);
    expect(() => generateDemoLedger({ seed: 1.5 })).toThrow(RangeError);
    expect(() => generateDemoLedger({ networkVersion: 256 })).toThrow(RangeError);
  });
});

describe('writeDemoLedger', () => {
  let directory: string;

  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'demo-ledger-'));
  });

  afterEach(() => {
    rmSync(directory, { recursive: true, force: true });
  });

  it('writes the ledger as JSON Lines the file source can read, and summarises the final history', () => {
    const path = join(directory, 'demo.jsonl');
    const summary = writeDemoLedger(path, { seed: 9, blockCount: 200 });
    const lines = readFileSync(path, 'utf8').split('\n');
    expect(lines.pop()).toBe('');
    const parsed = lines.map((line, index) => parseLedgerEvent(line, `line ${index + 1}`));
    const expected = generateDemoLedger({ seed: 9, blockCount: 200 });
    expect(parsed).toEqual(expected);
    expect(summary).toEqual(summarizeLedger(expected));
    const history = finalHistory(expected);
    expect(summary).toMatchObject({ blocks: history.length, transactions: history.flatMap((block) => block.transactions).length });
    expect(summary.blocks).toBe(200);
    expect(summary.reverts).toBe(expected.filter((entry) => entry.event === 'block.reverted').length);
    expect(Object.values(summary.byType).reduce((sum, count) => sum + count, 0)).toBe(summary.transactions);
    expect(summary.byType['9000/1']).toBeGreaterThan(0);
  });
});
