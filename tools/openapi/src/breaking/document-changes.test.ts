import type { OpenApiDocument } from './document';
import { breakingChanges } from './document-changes';

/** A document of one operation, `GET /items`, with a query parameter, a search body and a typed answer. */
function baseDocument(): OpenApiDocument {
  return {
    openapi: '3.1.0',
    paths: {
      '/items': {
        get: {
          parameters: [
            { name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 100 } },
            { name: 'orderBy', in: 'query', schema: { type: 'string', enum: ['fee:asc', 'fee:desc'] } },
          ],
          requestBody: {
            required: false,
            content: {
              'application/json': {
                schema: { type: 'object', properties: { name: { type: 'string' } }, additionalProperties: false },
              },
            },
          },
          responses: {
            '200': {
              description: 'OK',
              headers: { ETag: { $ref: '#/components/headers/ETag' } },
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    properties: { data: { type: 'array', items: { $ref: '#/components/schemas/Item' } } },
                    required: ['data'],
                  },
                },
              },
            },
            '404': { description: 'Not found' },
          },
        },
      },
    },
    components: {
      headers: { ETag: { schema: { type: 'string' } } },
      schemas: {
        Item: {
          type: 'object',
          properties: { id: { type: 'string' }, state: { type: 'string', enum: ['open', 'closed'] }, parent: { $ref: '#/components/schemas/Item' } },
          required: ['id', 'state'],
        },
      },
    },
  };
}

/** The breaking changes of the base document changed by `change`. */
function changesAfter(change: (document: OpenApiDocument) => void): string[] {
  const current = baseDocument();
  change(current);
  return breakingChanges(baseDocument(), current);
}

// Loosely typed access to the planted document's parts.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the tests edit the plain JSON freely
const operationOf = (document: OpenApiDocument): any => document.paths['/items'].get;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- as above
const itemOf = (document: OpenApiDocument): any => (document.components as any).schemas.Item;

describe('the breaking changes between two API documents', () => {
  it('finds none between a document and itself, recursive schemas included', () => {
    expect(changesAfter(() => {})).toEqual([]);
  });

  it.each<[string, (document: OpenApiDocument) => void, string]>([
    ['a removed path', (document) => delete document.paths['/items'], '/items: path removed'],
    ['a removed operation', (document) => delete document.paths['/items'].get, 'GET /items: operation removed'],
    ['a removed parameter', (document) => operationOf(document).parameters.pop(), 'GET /items query parameter orderBy: removed'],
    [
      'a new required parameter',
      (document) => operationOf(document).parameters.push({ name: 'area', in: 'query', required: true, schema: { type: 'string' } }),
      'GET /items query parameter area: new required parameter',
    ],
    [
      'a parameter made required',
      (document) => (operationOf(document).parameters[0].required = true),
      'GET /items query parameter limit: now required',
    ],
    [
      'a lowered maximum',
      (document) => (operationOf(document).parameters[0].schema.maximum = 50),
      'GET /items query parameter limit: maximum 100 -> 50',
    ],
    [
      'a narrowed type',
      (document) => (operationOf(document).parameters[1].schema.type = 'integer'),
      'GET /items query parameter orderBy: type "string" -> "integer"',
    ],
    [
      'a removed enum value',
      (document) => operationOf(document).parameters[1].schema.enum.pop(),
      'GET /items query parameter orderBy: enum value "fee:desc" removed',
    ],
    ['a body made required', (document) => (operationOf(document).requestBody.required = true), 'GET /items request body: now required'],
    [
      'a new required body member',
      (document) => (operationOf(document).requestBody.content['application/json'].schema.required = ['name']),
      'GET /items request body application/json $.name: now required',
    ],
    ['a removed response', (document) => delete operationOf(document).responses['404'], 'GET /items response 404: removed'],
    [
      'a removed response header',
      (document) => delete operationOf(document).responses['200'].headers.ETag,
      'GET /items response 200 header ETag: removed',
    ],
    [
      'a removed response field',
      (document) => delete itemOf(document).properties.id,
      'GET /items response 200 application/json $.data[].id: removed',
    ],
    [
      'a response field no longer always present',
      (document) => (itemOf(document).required = ['id']),
      'GET /items response 200 application/json $.data[].state: no longer always present',
    ],
    [
      'a new value of a response enum',
      (document) => itemOf(document).properties.state.enum.push('paused'),
      'GET /items response 200 application/json $.data[].state: enum value "paused" added',
    ],
    [
      'a response field that may now be null',
      (document) => (itemOf(document).properties.id.type = ['string', 'null']),
      'GET /items response 200 application/json $.data[].id: type "string" -> ["string","null"]',
    ],
  ])('reports %s', (_what, change, expected) => {
    expect(changesAfter(change)).toEqual([expected]);
  });

  it.each<[string, (document: OpenApiDocument) => void]>([
    ['a new path', (document) => (document.paths['/other'] = { get: { responses: { '200': { description: 'OK' } } } })],
    ['a new optional parameter', (document) => operationOf(document).parameters.push({ name: 'q', in: 'query', schema: { type: 'string' } })],
    ['a raised maximum', (document) => (operationOf(document).parameters[0].schema.maximum = 1000)],
    ['a new value of a parameter enum', (document) => operationOf(document).parameters[1].schema.enum.push('name:asc')],
    ['an integer parameter that takes any number', (document) => (operationOf(document).parameters[0].schema.type = 'number')],
    ['a new response field', (document) => (itemOf(document).properties.owner = { type: 'string' })],
    ['a new response', (document) => (operationOf(document).responses['429'] = { description: 'Too many requests' })],
    ['a response field always present now', (document) => itemOf(document).required.push('parent')],
  ])('lets %s pass', (_what, change) => {
    expect(changesAfter(change)).toEqual([]);
  });

  it('compares union alternatives as sets: a response may not add one, a request may not drop one', () => {
    const union = (schema: Record<string, unknown>) => ({ anyOf: [{ type: 'string' }, schema] });
    const released = baseDocument();
    const current = baseDocument();
    itemOf(released).properties.id = union({ type: 'integer' });
    itemOf(current).properties.id = { anyOf: [{ type: 'integer' }, { type: 'string' }, { type: 'boolean' }] };
    operationOf(released).parameters[0].schema = union({ type: 'integer' });
    operationOf(current).parameters[0].schema = { anyOf: [{ type: 'integer' }] };
    expect(breakingChanges(released, current)).toEqual([
      'GET /items query parameter limit.anyOf[0]: type "string" -> "integer"',
      'GET /items response 200 application/json $.data[].id.anyOf[2]: type "integer" -> "boolean"',
    ]);
  });

  it('takes a union of unions for the union of their alternatives: only an alternative added is reported', () => {
    const released = baseDocument();
    const current = baseDocument();
    itemOf(released).properties.id = { oneOf: [{ type: 'string' }, { type: 'integer' }] };
    (current.components as any).schemas.Id = { oneOf: [{ type: 'string' }, { type: 'integer' }] }; // eslint-disable-line @typescript-eslint/no-explicit-any -- as above
    itemOf(current).properties.id = { oneOf: [{ $ref: '#/components/schemas/Id' }, { type: 'boolean' }] };
    expect(breakingChanges(released, current)).toEqual([
      'GET /items response 200 application/json $.data[].id.oneOf[2]: type "integer" -> "boolean"',
    ]);
  });
});
