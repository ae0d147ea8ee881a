import { z } from 'zod';
import { booleanParam, transactionId } from './fields';
import { buildOpenApiDocument } from './openapi';
import { listQuerySchema } from './paging';
import { defineRoute } from './route';

const list = {
  filters: { active: booleanParam('Only active ones').optional() },
  orderable: { id: '_id' },
  defaultOrder: { _id: 1 as const },
  transform: true,
  totalCountIsEstimate: true,
};

const document = buildOpenApiDocument({ title: 'Things', version: '2.0.0' }, [
  defineRoute({
    method: 'get',
    path: '/things/:id',
    summary: 'A thing',
    tags: ['things'],
    params: z.strictObject({ id: transactionId() }),
    query: listQuerySchema(list),
    response: z.object({ data: z.object({ id: z.string() }) }),
    errors: [404],
    handler: async () => ({ data: { id: 'x' } }),
  }),
]);

describe('buildOpenApiDocument', () => {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the tests below assert the document's shape
  const operation = (document.paths['/things/{id}'] as Record<string, any>).get;

  it('describes path and query parameters with their types, bounds and defaults', () => {
    const byName = Object.fromEntries(operation.parameters.map((parameter: { name: string }) => [parameter.name, parameter]));
    expect(byName.id).toMatchObject({ in: 'path', required: true, schema: { type: 'string', minLength: 64, maxLength: 64 } });
    expect(byName.page).toMatchObject({ in: 'query', required: false, schema: { type: 'integer', minimum: 1, default: 1 } });
    expect(byName.limit.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 100, default: 100 });
    expect(byName.transform.schema).toMatchObject({ type: 'boolean', default: true });
    expect(byName.active).toMatchObject({ required: false, description: 'Only active ones' });
    expect(byName.orderBy.schema.description).toContain('Orderable fields: id.');
  });

  it('documents the success body and every error status in the error body format', () => {
    expect(document).toMatchObject({ openapi: '3.1.0', info: { title: 'Things', version: '2.0.0' }, tags: [{ name: 'things' }] });
    expect(Object.keys(operation.responses)).toEqual(['200', '404', '422', '503']);
    expect(operation.responses['404'].content['application/json'].schema.required).toEqual(['statusCode', 'error', 'message']);
  });
});
