import { parseLedgerMessage } from './events';
import { LedgerFault } from './fault';
import { TestLedger, testPublicKey } from './testing/test-ledger';

const PREFIX = 'ledger.block';
const ORIGIN = 'stream LEDGER sequence 7';

const ledger = new TestLedger();
const block = ledger.block([ledger.transaction({ typeGroup: 9000, type: 0, senderPublicKey: testPublicKey('alice') })]);
const ref = { id: block.id, height: block.height };

function message(kind: string, payload: unknown) {
  const text = typeof payload === 'string' ? payload : JSON.stringify(payload);
  return () => parseLedgerMessage({ subject: `${PREFIX}.${kind}`, payload: text, subjectPrefix: PREFIX, origin: ORIGIN });
}

function expectFault(parse: () => unknown, reason: string) {
  expect(parse).toThrow(LedgerFault);
  expect(parse).toThrow(new LedgerFault(reason));
}

describe('parseLedgerMessage', () => {
  it('reads the Block itself as the payload of an applied subject', () => {
    expect(message('applied', block)()).toEqual({ event: 'block.applied', block });
  });

  it('reads {id, height} as the payload of a reverted subject', () => {
    expect(message('reverted', ref)()).toEqual({ event: 'block.reverted', block: ref });
  });

  it('keeps only id and height of a reverted block sent whole', () => {
    expect(message('reverted', block)()).toEqual({ event: 'block.reverted', block: ref });
  });

  it('reads a whole file line whose event agrees with the subject', () => {
    expect(message('applied', { event: 'block.applied', block })()).toEqual({ event: 'block.applied', block });
    expect(message('reverted', { event: 'block.reverted', block: ref })()).toEqual({ event: 'block.reverted', block: ref });
  });

  it.each([
    ['an applied subject carrying a revert', 'applied', { event: 'block.reverted', block: ref }],
    ['a reverted subject carrying a block', 'reverted', { event: 'block.applied', block }],
    ['an event of no known kind', 'applied', { event: 'block.created', block }],
  ])('faults on a file line whose event contradicts its subject: %s', (_case, kind, payload) => {
    expectFault(message(kind, payload), `${ORIGIN}: event ${JSON.stringify(payload.event)} contradicts its subject ${PREFIX}.${kind}`);
  });

  it.each([
    ['an object of other members', 'applied', { hello: 'world' }, 'block.id must be a non-empty string'],
    ['a revert payload on the applied subject', 'applied', ref, 'block.previousBlock must be a string'],
    [
      'a block with a malformed transaction',
      'applied',
      { ...block, transactions: [{ id: 'x' }] },
      'block.transactions[0] must have an id, typeGroup, type and senderPublicKey',
    ],
    [
      'a transaction without its sender',
      'applied',
      { ...block, transactions: [{ id: 'x', typeGroup: 1, type: 0, nonce: '1', fee: '1', amount: '1' }] },
      'block.transactions[0] must have an id, typeGroup, type and senderPublicKey',
    ],
    ['a revert without height', 'reverted', { id: block.id }, 'block.height must be a positive integer'],
    ['an array', 'reverted', [ref], 'block must be an object'],
    ['a number', 'applied', 42, 'block must be an object'],
    ['a block member without event', 'applied', { block }, 'block.id must be a non-empty string'],
  ])('faults on a payload of neither form, naming the message: %s', (_case, kind, payload, problem) => {
    expectFault(message(kind, payload), `${ORIGIN}: not a valid ledger event (${problem})`);
  });

  it('faults on a payload that is not JSON, naming the message', () => {
    expectFault(message('applied', '{"id": '), `${ORIGIN}: not valid JSON`);
  });

  it('faults on a subject that names no kind', () => {
    expectFault(message('created', block), `${ORIGIN}: subject ledger.block.created is not one of ledger.block.{applied,reverted}`);
  });
});
