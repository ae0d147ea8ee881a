import fc from 'fast-check';

const SHOWN_BYTES = 240;

/** Bytes as a report shows them: readable text, long ones cut with their size given. */
export function showBytes(bytes: Buffer): string {
  const text = JSON.stringify(bytes.subarray(0, SHOWN_BYTES).toString('latin1'));
  return bytes.length > SHOWN_BYTES ? `${text}… (${bytes.length} bytes)` : text;
}

/** Makes fast-check print a counterexample holding `bytes` as readable text. */
export function shownAs<T extends object>(value: T, bytes: Buffer): T {
  return Object.assign(value, { [fc.toStringMethod]: () => showBytes(bytes) });
}

export interface WireText {
  text: string;
}

/** Generated wire text (ids, query strings) that fast-check reports cut to a readable length. */
export const shownWire = (texts: fc.Arbitrary<string>): fc.Arbitrary<WireText> => texts.map((text) => shownAs({ text }, Buffer.from(text, 'latin1')));
