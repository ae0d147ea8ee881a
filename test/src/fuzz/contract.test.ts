import { parseJsonBody, transactionIdsBody, validate } from '@ledger-api/http';
import fc from 'fast-check';
import { batchBody } from './bodies';
import { batchAnswerProblems, expectedBatchAnswer, type BatchAnswer } from './contract';

const KNOWN = ['a'.repeat(64), `${'0'.repeat(63)}1`];

/** What the services answer a batch body, found by their own body parsing and validation. */
function servicesAnswer(bytes: Buffer): BatchAnswer {
  if (bytes.length > 64 * 1024) return { status: 413 };
  try {
    return { status: 200, ids: validate(transactionIdsBody, parseJsonBody(bytes.toString('utf8'))).ids };
  } catch (error) {
    return { status: 422, message: (error as Error).message };
  }
}

describe('the expected answer of a batch lookup', () => {
  it('is what the services answer, for every body the fuzz suite sends', () => {
    fc.assert(
      fc.property(batchBody(KNOWN), (body) => {
        expect(expectedBatchAnswer(body.bytes)).toEqual(servicesAnswer(body.bytes));
      }),
      { numRuns: 2000, seed: 1 },
    );
  });

  it('takes entries in request order, null only for ids of no record', () => {
    const expected: BatchAnswer = { status: 200, ids: [KNOWN[0], 'f'.repeat(64)] };
    const body = (data: unknown) => JSON.stringify({ data });
    expect(batchAnswerProblems(expected, 200, body([{ id: KNOWN[0] }, null]), new Set(KNOWN))).toEqual([]);
    expect(batchAnswerProblems(expected, 200, body([null, null]), new Set(KNOWN))).toEqual([`entry 0 is null, for the existing ${KNOWN[0]}`]);
    expect(batchAnswerProblems(expected, 200, body([{ id: 'f'.repeat(64) }, null]), new Set(KNOWN))).toHaveLength(1);
    expect(batchAnswerProblems(expected, 200, body([null]), new Set())).toEqual(['answered 1 entries for 2 ids']);
    expect(batchAnswerProblems({ status: 422, message: 'm' }, 422, JSON.stringify({ message: 'n' }), new Set())).toHaveLength(1);
  });
});
