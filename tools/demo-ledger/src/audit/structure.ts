import { LEDGER_EPOCH_UNIX, type Block, type LedgerEvent, type Transaction } from '@ledger-api/ledger';

/**
 * An independent audit of a ledger's shape, written against
 * docs/ledger-events.md rather than the generator, so the tests can
 * tell a generator bug from a checker bug.
 */
export interface StructureAudit {
  problems: string[];
  /** The blocks left once every revert has taken its block back, in order. */
  history: Block[];
  reverts: number;
  /** Depth of each reorganisation: how many blocks were reverted in a row. */
  reorganisationDepths: number[];
}

const BLOCK_SECONDS = 8;
const HEX_64 = /^[0-9a-f]{64}$/;
const HEX_128 = /^[0-9a-f]{128}$/;
const PUBLIC_KEY = /^0[23][0-9a-f]{64}$/;
const DECIMAL = /^(0|[1-9]\d*)$/;

export function auditStructure(events: LedgerEvent[], network: number): StructureAudit {
  const problems: string[] = [];
  const history: Block[] = [];
  const blockIds = new Set<string>();
  const transactionIds = new Set<string>();
  const reorganisationDepths: number[] = [];
  let revertRun = 0;
  let reverts = 0;

  events.forEach((entry, index) => {
    const where = `event ${index + 1}`;
    const tip = history[history.length - 1];
    if (entry.event === 'block.reverted') {
      reverts++;
      revertRun++;
      const revertsTip = tip !== undefined && tip.id === entry.block.id && tip.height === entry.block.height;
      if (!revertsTip) problems.push(`${where}: reverts a block that is not the last applied`);
      history.pop();
      return;
    }
    if (revertRun > 0) reorganisationDepths.push(revertRun);
    revertRun = 0;
    const { block } = entry;
    const expectedHeight = (tip?.height ?? 0) + 1;
    if (block.height !== expectedHeight) problems.push(`${where}: height ${block.height}, expected ${expectedHeight}`);
    if (block.previousBlock !== (tip?.id ?? '0'.repeat(64))) problems.push(`${where}: previousBlock does not name the last applied block`);
    if (!HEX_64.test(block.id) || blockIds.has(block.id)) problems.push(`${where}: block id ${block.id} is malformed or repeated`);
    blockIds.add(block.id);
    problems.push(...timestampProblems(block, tip).map((problem) => `${where}: ${problem}`));
    for (const tx of block.transactions) {
      if (transactionIds.has(tx.id)) problems.push(`${where}: transaction id ${tx.id} repeated`);
      transactionIds.add(tx.id);
      problems.push(...transactionProblems(tx, network).map((problem) => `${where}: tx ${tx.id}: ${problem}`));
    }
    history.push(block);
  });
  problems.push(...nonceProblems(history));
  return { problems, history, reverts, reorganisationDepths };
}

function timestampProblems(block: Block, previous: Block | undefined): string[] {
  const { epoch, unix, human } = block.timestamp;
  const problems: string[] = [];
  if (unix - epoch !== LEDGER_EPOCH_UNIX) problems.push('timestamp epoch does not match unix');
  if (new Date(unix * 1000).toISOString() !== human) problems.push('timestamp human does not match unix');
  if (previous && unix - previous.timestamp.unix !== BLOCK_SECONDS) problems.push(`block time is not ${BLOCK_SECONDS} seconds`);
  return problems;
}

function transactionProblems(tx: Transaction, network: number): string[] {
  const problems: string[] = [];
  if (!HEX_64.test(tx.id)) problems.push('id is not 64 hex');
  if (tx.version !== 2 || tx.network !== network) problems.push('wrong version or network');
  if (!PUBLIC_KEY.test(tx.senderPublicKey)) problems.push('senderPublicKey is not a compressed public key');
  const decimals = [tx.nonce, tx.fee, tx.amount].every((value) => typeof value === 'string' && DECIMAL.test(value));
  if (!decimals) problems.push('nonce, fee or amount is not a decimal string');
  if (typeof tx.signature !== 'string' || !HEX_128.test(tx.signature)) problems.push('signature is not 128 hex');
  const isTransfer = tx.typeGroup === 1 && tx.type === 0;
  if (isTransfer !== (tx.recipientId !== undefined)) problems.push('recipientId present on a type without one, or missing on a transfer');
  if (!isTransfer && tx.asset === undefined) problems.push('asset missing');
  return problems;
}

/** Each sender's nonces along the final history run 1, 2, 3, ... */
function nonceProblems(history: Block[]): string[] {
  const lastNonce = new Map<string, bigint>();
  const problems: string[] = [];
  for (const block of history) {
    for (const tx of block.transactions) {
      const expected = (lastNonce.get(tx.senderPublicKey) ?? 0n) + 1n;
      if (!DECIMAL.test(tx.nonce) || BigInt(tx.nonce) !== expected) {
        problems.push(`height ${block.height}: tx ${tx.id} has nonce ${tx.nonce}, expected ${expected}`);
      }
      lastNonce.set(tx.senderPublicKey, expected);
    }
  }
  return problems;
}
