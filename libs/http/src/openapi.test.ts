import type { errorResponse } from '@ledger-api/http-core';
import { z } from 'zod';
import { booleanParam, transactionId } from './fields';
import { buildOpenApiDocument } from './openapi';
import { listQuerySchema } from './paging';
import { defineRoute, type AnyRoute } from './route';

const list = {
  filters: { active: booleanParam('Only active ones').optional() },
  orderable: { id: '_id' },
  defaultOrder: { _id: 1 as const },
  transform: true,
  totalCountIsEstimate: true,
};

const part = z.object({ size: z.number().int() }).meta({ id: 'Part' });
const thing = z.object({ id: z.string(), part }).meta({ id: 'Thing', examples: [{ id: 'x', part: { size: 1 } }] });

const getThing = defineRoute({
  method: 'get',
  path: '/things/:id',
  operationId: 'getThing',
  summary: 'A thing',
  tags: ['things'],
  params: z.strictObject({ id: transactionId() }),
  query: listQuerySchema(list),
  response: z.object({ data: thing }),
  errors: [404],
  handler: async () => ({ data: { id: 'x' } }),
});

const searchThings = defineRoute({
  method: 'post',
  path: '/things/search',
  operationId: 'searchThings',
  summary: 'Search things',
  tags: ['things'],
  body: z.strictObject({ size: z.number().int().optional() }),
  response: z.object({ data: z.array(thing) }),
  handler: async () => ({ data: [] }),
});

const document = buildOpenApiDocument({ title: 'Things', version: '2.0.0' }, [getThing, searchThings]);

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the tests below assert the document's shape
const operationOf = (path: string, method: string) => (document.paths[path] as Record<string, any>)[method];

describe('buildOpenApiDocument', () => {
  const operation = operationOf('/things/{id}', 'get');

  it('names each operation by its operationId', () => {
    expect(operation.operationId).toBe('getThing');
    expect(operationOf('/things/search', 'post').operationId).toBe('searchThings');
  });

  it('describes path and query parameters with their types, bounds and defaults', () => {
    const byName = Object.fromEntries(operation.parameters.map((parameter: { name: string }) => [parameter.name, parameter]));
    expect(byName.id).toMatchObject({ in: 'path', required: true, schema: { type: 'string', minLength: 64, maxLength: 64 } });
    expect(byName.page).toMatchObject({ in: 'query', required: false, schema: { type: 'integer', minimum: 1, default: 1 } });
    expect(byName.limit.schema).toEqual({ type: 'integer', minimum: 1, maximum: 100, default: 100 });
    expect(byName.transform.schema).toMatchObject({ type: 'boolean', default: true });
    expect(byName.active).toMatchObject({ required: false, description: 'Only active ones' });
    expect(byName.orderBy.schema.description).toContain('Orderable fields: id.');
  });

  it('keeps only the stricter of two bounds and leaves out the safe-integer range', () => {
    const page = operation.parameters.find((parameter: { name: string }) => parameter.name === 'page');
    expect(page.schema).not.toHaveProperty('exclusiveMinimum');
    expect(page.schema).not.toHaveProperty('maximum');
    expect(document.components.schemas.Part).toEqual({ type: 'object', properties: { size: { type: 'integer' } }, required: ['size'] });
  });

  it('makes every named schema a component, referred to wherever it is used', () => {
    expect(Object.keys(document.components.schemas)).toEqual(['Error', 'Part', 'Thing']);
    expect(document.components.schemas.Thing).toMatchObject({
      properties: { id: { type: 'string' }, part: { $ref: '#/components/schemas/Part' } },
      examples: [{ id: 'x', part: { size: 1 } }],
    });
    expect(operation.responses['200'].content['application/json'].schema).toEqual({
      type: 'object',
      properties: { data: { $ref: '#/components/schemas/Thing' } },
      required: ['data'],
    });
  });

  it('refuses two different schemas of one name', () => {
    const impostor = z.object({ name: z.string() }).meta({ id: 'Thing' });
    const route: AnyRoute = { ...searchThings, path: '/others', response: z.object({ data: impostor }) };
    expect(() => buildOpenApiDocument({ title: 'Things', version: '2.0.0' }, [getThing, route])).toThrow('Two different schemas are named "Thing"');
  });

  it("lists every status a client can get: 304 for a GET, 413 for a body, and the route's own", () => {
    expect(Object.keys(operation.responses)).toEqual(['200', '304', '400', '404', '408', '422', '431', '503']);
    expect(Object.keys(operationOf('/things/search', 'post').responses)).toEqual(['200', '400', '408', '413', '422', '431', '503']);
    expect(operation.responses['404']).toEqual({ $ref: '#/components/responses/NotFound' });
  });

  // Which headers a success carries is the app's test: it sends every one its document names.
  it('documents the headers of a success as shared components, and the error body of every shared error response, with examples', () => {
    const { responses, headers } = document.components;
    for (const [name, header] of Object.entries(operation.responses['200'].headers)) {
      expect(header).toEqual({ $ref: `#/components/headers/${name}` });
      expect(headers).toHaveProperty([name]);
    }
    expect(Object.keys(responses).sort()).toEqual(
      [
        'BadRequest',
        'NotFound',
        'NotModified',
        'PayloadTooLarge',
        'RequestHeaderFieldsTooLarge',
        'RequestTimeout',
        'ServiceUnavailable',
        'UnprocessableEntity',
      ].sort(),
    );
    expect(responses.ServiceUnavailable).toMatchObject({
      headers: { 'Retry-After': { $ref: '#/components/headers/Retry-After' } },
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    });
    const unprocessable = responses.UnprocessableEntity as ReturnType<typeof errorResponse>;
    const examples = Object.values(unprocessable.content['application/json'].examples ?? {});
    expect(examples).toContainEqual({
      value: { statusCode: 422, error: 'Unprocessable Entity', message: '"limit" must be less than or equal to 100' },
    });
    expect(headers['X-Block-Height']).toMatchObject({ required: true, schema: { type: 'integer' } });
    expect(document.components.schemas.Error.required).toEqual(['statusCode', 'error', 'message']);
  });

  it('leaves out the shared responses no operation uses', () => {
    const getOnly = buildOpenApiDocument({ title: 'Things', version: '2.0.0' }, [getThing]);
    expect(getOnly.components.responses).not.toHaveProperty('PayloadTooLarge');
    expect(getOnly.components.headers).toHaveProperty('ETag');
  });
});
