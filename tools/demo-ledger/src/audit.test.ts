import type { Block, LedgerEvent, Transaction } from '@ledger-api/ledger';
import { generateDemoLedger } from './generator';
import { auditSemantics } from './audit/semantics';
import { auditStructure } from './audit/structure';

/** The audits only prove the generator right if they catch a ledger that is wrong. */
const MAINNET = 23;
const pristine = generateDemoLedger({ seed: 11, blockCount: 300 });

function appliedBlocks(events: LedgerEvent[]): Block[] {
  return events.flatMap((entry) => (entry.event === 'block.applied' ? [entry.block] : []));
}

/** A copy of the ledger with the first final-history transaction of that type changed. */
function tamper(typeGroup: number, type: number, change: (tx: Transaction, events: LedgerEvent[]) => void): LedgerEvent[] {
  const events = structuredClone(pristine);
  const history = auditStructure(events, MAINNET).history;
  const tx = history.flatMap((block) => block.transactions).find((candidate) => candidate.typeGroup === typeGroup && candidate.type === type);
  if (!tx) throw new Error(`the ledger holds no ${typeGroup}/${type} transaction`);
  change(tx, events);
  return events;
}

function semanticProblems(events: LedgerEvent[]): string[] {
  return auditSemantics(auditStructure(events, MAINNET).history, MAINNET).problems;
}

describe('ledger audits', () => {
  it('pass the untouched ledger', () => {
    const structure = auditStructure(pristine, MAINNET);
    expect(structure.problems).toEqual([]);
    expect(auditSemantics(structure.history, MAINNET).problems).toEqual([]);
  });

  it('catch a broken chain link and a height gap', () => {
    const relinked = structuredClone(pristine);
    appliedBlocks(relinked)[5].previousBlock = 'f'.repeat(64);
    expect(auditStructure(relinked, MAINNET).problems.join('\n')).toMatch(/previousBlock/);

    const gap = structuredClone(pristine);
    appliedBlocks(gap)[7].height += 1;
    expect(auditStructure(gap, MAINNET).problems.join('\n')).toMatch(/height/);
  });

  it('catch a repeated transaction id and a skipped nonce', () => {
    const repeated = structuredClone(pristine);
    const blocks = appliedBlocks(repeated);
    blocks[9].transactions[0].id = blocks[3].transactions[0].id;
    expect(auditStructure(repeated, MAINNET).problems.join('\n')).toMatch(/repeated/);

    const skipped = tamper(1, 0, (tx) => {
      tx.nonce = String(BigInt(tx.nonce) + 1n);
    });
    expect(auditStructure(skipped, MAINNET).problems.join('\n')).toMatch(/nonce/);
  });

  it('catch a transfer by a wallet that does not own the asset', () => {
    const stolen = tamper(9000, 2, (tx, events) => {
      const outsider = appliedBlocks(events)
        .flatMap((block) => block.transactions)
        .find((candidate) => candidate.senderPublicKey !== tx.senderPublicKey)!;
      tx.senderPublicKey = outsider.senderPublicKey;
    });
    expect(semanticProblems(stolen).join('\n')).toMatch(/not the sender's to use/);
  });

  it('catch attributes outside the schema and a supply overrun', () => {
    const malformed = tamper(9000, 1, (tx) => {
      tx.asset!.nftToken.attributes = { unexpected: true };
    });
    expect(semanticProblems(malformed).join('\n')).toMatch(/is required/);

    const overrun = tamper(9000, 0, (tx) => {
      tx.asset!.nftCollection.maximumSupply = 1;
    });
    expect(semanticProblems(overrun).join('\n')).toMatch(/beyond maximumSupply/);
  });

  it('catch a low bid and a trade of an unknown bid', () => {
    const low = tamper(9001, 2, (tx) => {
      tx.asset!.nftBid.bidAmount = '0';
    });
    expect(semanticProblems(low).join('\n')).toMatch(/below the start amount/);

    const unknownBid = tamper(9001, 4, (tx) => {
      tx.asset!.nftAcceptTrade.bidId = 'e'.repeat(64);
    });
    expect(semanticProblems(unknownBid).join('\n')).toMatch(/not active on that auction/);
  });
});
