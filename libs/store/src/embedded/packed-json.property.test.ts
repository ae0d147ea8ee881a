import fc from 'fast-check';
import { packedJson, unpackedJson } from './packed-json';

/** The plain statement of the format, a regular expression over the JSON text, which the packer must write. */
function referenceText(value: unknown): string {
  const packedHex = (run: string) => {
    let packed = '';
    let at = 0;
    while (run.length - at >= 2) {
      const bytes = Math.min(255, (run.length - at) >> 1);
      packed += '\u0001' + String.fromCharCode(bytes) + Buffer.from(run.slice(at, at + 2 * bytes), 'hex').toString('latin1');
      at += 2 * bytes;
    }
    return packed + run.slice(at);
  };
  return JSON.stringify(value).replace(/[0-9a-f]{32,}/g, packedHex);
}

const LOWER = '0123456789abcdef';
const digits = (unit: string, minLength: number, maxLength: number) =>
  fc.string({ unit: fc.constantFrom(...unit), minLength, maxLength, size: 'max' });

// Pieces chosen so that runs start and end next to every kind of character, short of, at and past every limit.
const asciiPiece = fc.oneof(
  digits(LOWER, 0, 40),
  digits(LOWER, 30, 34),
  digits(LOWER, 28, 70),
  digits(LOWER, 500, 1100),
  digits('0123456789ABCDEF', 28, 70),
  digits(`${LOWER}ABCDEF`, 28, 70),
  fc.constantFrom('', 'g', 'x', '"', '\\', '\u0001', '\u0000', '\n', '\u007f'),
  fc.string({ unit: 'binary-ascii', maxLength: 4 }),
);
const anyPiece = fc.oneof(asciiPiece, fc.constantFrom('é', 'ÿ', '€', '🎁', '\ud800', '日本'), fc.string({ unit: 'binary', maxLength: 4 }));

function transactionOf(piece: fc.Arbitrary<string>): fc.Arbitrary<Record<string, unknown>> {
  const text = fc.array(piece, { maxLength: 5 }).map((pieces) => pieces.join(''));
  const { value } = fc.letrec<{ value: unknown }>((tie) => ({
    value: fc.oneof(
      { depthSize: 'small' },
      text,
      fc.integer(),
      fc.constantFrom(true, null),
      fc.array(tie('value'), { maxLength: 4 }),
      fc.array(fc.tuple(text, tie('value')), { maxLength: 4 }).map((members) => Object.fromEntries(members)),
    ),
  }));
  return fc.record({
    id: digits(LOWER, 64, 64),
    version: fc.constant(2),
    typeGroup: fc.nat(),
    type: fc.nat(),
    nonce: fc.bigInt({ min: 0n }).map(String),
    senderPublicKey: text,
    fee: text,
    amount: text,
    asset: fc.dictionary(text, value, { maxKeys: 3 }),
    signature: text,
  });
}

// Texts of ASCII only and texts of any characters are packed apart, so each kind comes as often.
const transaction = fc.oneof(transactionOf(asciiPiece), transactionOf(anyPiece));

describe('packed JSON, for any transaction-shaped value', () => {
  it('is the text the plain statement of the format gives, character for character', () => {
    fc.assert(
      fc.property(transaction, (tx) => packedJson(tx) === referenceText(tx)),
      { numRuns: 500 },
    );
  });

  it('reads back the value, member order included', () => {
    fc.assert(fc.property(transaction, (tx) => JSON.stringify(unpackedJson(packedJson(tx))) === JSON.stringify(tx)));
  });
});
