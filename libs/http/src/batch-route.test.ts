import { z } from 'zod';
import { batchLookupRoute, MAX_BATCH_IDS, transactionIdsBody } from './batch-route';
import { buildOpenApiDocument } from './openapi';
import { validate } from './validation';

const A = 'a'.repeat(64);
const B = 'b'.repeat(64);
const UNKNOWN = 'c'.repeat(64);

const thing = z.object({ id: z.string(), size: z.number() }).meta({ id: 'Thing' });
const stored = new Map([
  [A, { _id: A, size: 1 }],
  [B, { _id: B, size: 2 }],
]);

function thingsBatch() {
  const asked: string[][] = [];
  const route = batchLookupRoute({
    path: '/things/batch',
    byIdPath: '/things/{id}',
    operationId: 'getThingsBatch',
    summary: 'Get things by their ids',
    tags: ['things'],
    item: thing,
    async find(ids) {
      asked.push(ids);
      return new Map(ids.flatMap((id) => (stored.has(id) ? [[id, stored.get(id)!] as const] : [])));
    },
    present: (doc, { transform }) => (transform ? { id: doc._id, size: doc.size } : doc),
  });
  return { route, asked };
}

const location = { path: '/things/batch', queryPairs: [] };

function messageOf(body: unknown): string {
  try {
    validate(transactionIdsBody, body);
  } catch (error) {
    expect(error).toMatchObject({ status: 422 });
    return (error as Error).message;
  }
  throw new Error('expected a validation error');
}

describe('batchLookupRoute', () => {
  it('answers one entry per requested id in request order, null for an unknown one, finding each id once', async () => {
    const { route, asked } = thingsBatch();
    const ids = validate(transactionIdsBody, { ids: [B, UNKNOWN, A.toUpperCase(), B] }).ids;
    const answer = await route.handler({ params: {}, query: { transform: true }, body: { ids }, location, height: 3, blockId: 'c'.repeat(64) });
    expect(answer).toEqual({ data: [{ id: B, size: 2 }, null, { id: A, size: 1 }, { id: B, size: 2 }] });
    expect(asked).toEqual([[B, UNKNOWN, A]]);
  });

  it('presents with the query it was given', async () => {
    const { route } = thingsBatch();
    const answer = await route.handler({ params: {}, query: { transform: false }, body: { ids: [A] }, location, height: 3, blockId: 'c'.repeat(64) });
    expect(answer).toEqual({ data: [{ _id: A, size: 1 }] });
  });

  it('describes the body, the transform parameter and the nullable entries in the OpenAPI document', () => {
    const document = buildOpenApiDocument({ title: 'Things', version: '1.0.0' }, [thingsBatch().route]);
    const operation = (document.paths['/things/batch'] as Record<string, Record<string, unknown>>).post;
    expect(operation).toMatchObject({ operationId: 'getThingsBatch', tags: ['things'] });
    expect(operation.description).toContain('GET /things/{id}');
    expect(operation.parameters).toEqual(
      ['transform', 'height', 'blockId', 'minHeight'].map((name) => expect.objectContaining({ name, in: 'query', required: false })),
    );
    expect(document.components.schemas.TransactionIds).toMatchObject({
      type: 'object',
      required: ['ids'],
      additionalProperties: false,
      properties: { ids: { type: 'array', minItems: 1, maxItems: MAX_BATCH_IDS, items: { type: 'string', minLength: 64, maxLength: 64 } } },
      // Kept although the ids are lower-cased on the way in, which makes zod leave examples out.
      examples: [{ ids: [expect.stringMatching(/^[0-9a-f]{64}$/), expect.stringMatching(/^[0-9A-F]{64}$/)] }],
    });
    const success = JSON.stringify(operation.responses);
    expect(success).toContain('"#/components/schemas/Thing"');
    expect(success).toContain('{"type":"null"}');
  });
});

describe('the ids body', () => {
  it.each([
    ['null', '"value" must be of type object', null],
    ['an array', '"value" must be of type object', [A]],
    ['no ids', '"ids" is required', {}],
    ['another key only', '"ids" is required', { other: 1 }],
    ['one id as a string', '"ids" must be an array', { ids: A }],
    ['ids: null', '"ids" must be an array', { ids: null }],
    ['no id', '"ids" must contain at least 1 items', { ids: [] }],
    ['101 ids', '"ids" must contain less than or equal to 100 items', { ids: Array(MAX_BATCH_IDS + 1).fill(A) }],
    ['101 malformed ids', '"ids" must contain less than or equal to 100 items', { ids: Array(MAX_BATCH_IDS + 1).fill('x') }],
    ['a non-hex id at 3', '"ids[3]" must only contain hexadecimal characters', { ids: [A, A, A, `${'a'.repeat(63)}g`] }],
    ['a short id at 3', '"ids[3]" length must be 64 characters long', { ids: [A, A, A, 'abc'] }],
    ['a number at 1', '"ids[1]" must be a string', { ids: [A, 7] }],
    ['another key', '"other" is not allowed', { ids: [A], other: 1 }],
  ])('%s: %s', (_name, message, body) => {
    expect(messageOf(body)).toBe(message);
  });

  it('takes 1 to 100 ids in any case, repeats kept, lower-cased', () => {
    expect(validate(transactionIdsBody, { ids: [A.toUpperCase(), A] })).toEqual({ ids: [A, A] });
    expect(validate(transactionIdsBody, { ids: Array(MAX_BATCH_IDS).fill(B) }).ids).toHaveLength(MAX_BATCH_IDS);
  });
});
