import fc from 'fast-check';
import { z } from 'zod';
import { hexText } from './hex';

/** hexText as first written, with a regular expression: requests and ledger events must read exactly as they did. */
const referenceHexText = (length: number) =>
  z
    .string()
    .regex(/^[0-9a-fA-F]*$/, 'must only contain hexadecimal characters')
    .length(length)
    .transform((value) => value.toLowerCase());

const outcome = (schema: z.ZodType, value: unknown, params?: { reportInput: boolean }) => {
  const result = schema.safeParse(value, params);
  return JSON.stringify(result.success ? { data: result.data } : { issues: result.error.issues });
};

// Hex digits of both cases among their neighbours in the code table, characters that fold onto them, and surrogate pairs (zod counts code points).
const near = fc.constantFrom(...'0123456789abcdefABCDEF/:@G`gé\u0010\u0030\u0130\u0161\uff10\uff41\u0660', '😀', '\ud800');
const text = fc.oneof(
  fc.string({ unit: fc.constantFrom(...'0123456789abcdefABCDEF'), maxLength: 10 }),
  fc.string({ unit: near, maxLength: 10 }),
  fc.string({ unit: 'binary', maxLength: 10 }),
);

describe('hexText, for any value and length', () => {
  it('accepts, refuses and reads as the regular expression did', () => {
    fc.assert(
      fc.property(fc.nat({ max: 8 }), fc.oneof(text, fc.anything()), (length, value) => {
        const [schema, reference] = [hexText(length), referenceHexText(length)];
        expect(outcome(schema, value)).toBe(outcome(reference, value));
        expect(outcome(schema, value, { reportInput: true })).toBe(outcome(reference, value, { reportInput: true }));
      }),
      { numRuns: 2000 },
    );
  });

  it('describes itself in JSON Schema as the regular expression did', () => {
    expect(z.toJSONSchema(hexText(64), { io: 'input' })).toEqual(z.toJSONSchema(referenceHexText(64), { io: 'input' }));
  });
});
