import type { Page, PageRequest } from '@ledger-api/store';
import { z } from 'zod';
import { buildOpenApiDocument } from './openapi';
import type { ListConfig } from './paging';
import { pagedRecordsRoute } from './paged-records-route';
import { recordRoutes, subresourceRoute } from './record-routes';
import type { AnyRoute } from './route';
import { validate } from './validation';

const A = 'a'.repeat(64);
const B = 'b'.repeat(64);

interface Thing {
  _id: string;
  size: number;
}
interface ThingWithParts extends Thing {
  parts: number;
}

const stored: ThingWithParts[] = [
  { _id: A, size: 1, parts: 2 },
  { _id: B, size: 5, parts: 0 },
];

const list = (transform: boolean): ListConfig<Record<never, never>> => ({
  filters: {},
  orderable: { size: 'size' },
  defaultOrder: { _id: 1 },
  transform,
  totalCountIsEstimate: false,
});

const pageOf = <T>(items: T[]): Page<T> => ({ items, totalCount: items.length });

function thingsRepository() {
  const reads: unknown[][] = [];
  return {
    reads,
    async list(query: PageRequest, height: number) {
      reads.push(['list', query.limit, height]);
      return pageOf<Thing>(stored);
    },
    async findById(id: string) {
      return stored.find((thing) => thing._id === id) ?? null;
    },
    async findByIds(ids: string[]) {
      return new Map(stored.filter((thing) => ids.includes(thing._id)).map((thing) => [thing._id, thing]));
    },
    async search(body: { minSize: number }, _query: PageRequest, height: number) {
      reads.push(['search', body.minSize, height]);
      return pageOf<Thing>(stored.filter((thing) => thing.size >= body.minSize));
    },
  };
}

const thing = z.object({ id: z.string() }).meta({ id: 'Thing' });
const thingDetail = z.object({ id: z.string(), parts: z.number() }).meta({ id: 'ThingDetail' });
const operations = {
  list: { operationId: 'listThings', summary: 'List things' },
  byId: { operationId: 'getThing', summary: 'Get a thing', notFound: 'Thing not found' },
  batch: { operationId: 'batchGetThings', summary: 'Get things by their ids' },
  search: { operationId: 'searchThings', summary: 'Search things', description: 'By size', body: z.strictObject({ minSize: z.number() }) },
};

function thingRoutes(transform = true) {
  const repository = thingsRepository();
  const routes = recordRoutes({
    path: '/things',
    tags: ['Things'],
    list: list(transform),
    item: thing,
    detail: thingDetail,
    repository,
    present: (record: Thing, asShape) => (asShape ? { id: record._id } : { raw: record._id }),
    presentDetail: (record: ThingWithParts, asShape) => (asShape ? { id: record._id, parts: record.parts } : { raw: record._id }),
    operations,
  });
  return { routes, reads: repository.reads };
}

const location = { path: '/things', queryPairs: [] };

/** What a route answers to a request that passes its validation. */
function answer(route: AnyRoute, { params = {}, query = {}, body }: { params?: object; query?: object; body?: unknown }) {
  const input = {
    params: route.params ? validate(route.params, params) : {},
    query: route.query ? validate(route.query, query) : {},
    body: route.body ? validate(route.body, body) : undefined,
    location,
    height: 7,
    blockId: 'c'.repeat(64),
  };
  return route.handler(input);
}

describe('recordRoutes', () => {
  it('builds each route asked for, below the path', () => {
    const { routes } = thingRoutes();
    const shapes = Object.entries(routes).map(([name, route]) => [name, route.method, route.path, route.operationId]);
    expect(shapes).toEqual([
      ['list', 'get', '/things', 'listThings'],
      ['byId', 'get', '/things/:id', 'getThing'],
      ['batch', 'post', '/things/batch', 'batchGetThings'],
      ['search', 'post', '/things/search', 'searchThings'],
    ]);
  });

  it('lists and searches at the height of the request, presenting each record as lists do', async () => {
    const { routes, reads } = thingRoutes();
    await expect(answer(routes.list, { query: { limit: '2' } })).resolves.toMatchObject({ data: [{ id: A }, { id: B }], meta: { count: 2 } });
    await expect(answer(routes.search, { query: { transform: 'false' }, body: { minSize: 3 } })).resolves.toMatchObject({ data: [{ raw: B }] });
    expect(reads).toEqual([
      ['list', 2, 7],
      ['search', 3, 7],
    ]);
  });

  it('answers a record and a batch with the detail presenter, and 404 with the message given', async () => {
    const { routes } = thingRoutes();
    await expect(answer(routes.byId, { params: { id: A } })).resolves.toEqual({ data: { id: A, parts: 2 } });
    await expect(answer(routes.byId, { params: { id: B }, query: { transform: 'false' } })).resolves.toEqual({ data: { raw: B } });
    await expect(answer(routes.byId, { params: { id: 'c'.repeat(64) } })).rejects.toMatchObject({ status: 404, message: 'Thing not found' });
    await expect(answer(routes.batch, { body: { ids: [B, 'c'.repeat(64)] } })).resolves.toEqual({ data: [{ id: B, parts: 0 }, null] });
  });

  it('takes no transform by id where the list takes none, and presents resource shapes', async () => {
    const { routes } = thingRoutes(false);
    expect(Object.keys(routes.byId.query.shape)).toEqual(['height', 'blockId', 'minHeight']);
    await expect(answer(routes.byId, { params: { id: A } })).resolves.toEqual({ data: { id: A, parts: 2 } });
    await expect(answer(routes.list, {})).resolves.toMatchObject({ data: [{ id: A }, { id: B }] });
  });

  it('documents the list and search items and the by-id and batch details', () => {
    const { routes } = thingRoutes();
    const document = buildOpenApiDocument({ title: 'Things', version: '1.0.0' }, Object.values(routes));
    const responseOf = (path: string, method: string) =>
      JSON.stringify((document.paths[path] as Record<string, { responses: unknown }>)[method].responses);
    expect(responseOf('/things', 'get')).toContain('"#/components/schemas/Thing"');
    expect(responseOf('/things/search', 'post')).toContain('"#/components/schemas/Thing"');
    expect(responseOf('/things/{id}', 'get')).toContain('"#/components/schemas/ThingDetail"');
    expect(responseOf('/things/batch', 'post')).toContain('"#/components/schemas/ThingDetail"');
    expect((document.paths['/things/search'] as Record<string, { description?: string }>).post.description).toBe('By size');
    expect((document.paths['/things'] as Record<string, { description?: string }>).get).not.toHaveProperty('description');
  });
});

describe('subresourceRoute', () => {
  const partsOf = subresourceRoute({
    path: '/things/:id/parts',
    operationId: 'getThingParts',
    summary: 'Get the parts of a thing',
    tags: ['Things'],
    data: z.number(),
    find: async (id) => stored.find((found) => found._id === id)?.parts ?? null,
    notFound: 'Thing not found',
  });

  it('answers what the record leads to, a falsy value included', async () => {
    await expect(answer(partsOf, { params: { id: A } })).resolves.toEqual({ data: 2 });
    await expect(answer(partsOf, { params: { id: B } })).resolves.toEqual({ data: 0 });
  });

  it('answers 404 with the message given where the record leads nowhere', async () => {
    await expect(answer(partsOf, { params: { id: 'c'.repeat(64) } })).rejects.toMatchObject({ status: 404, message: 'Thing not found' });
  });
});

describe('pagedRecordsRoute', () => {
  const partsList = pagedRecordsRoute({
    path: '/things/:id/things',
    operationId: 'listThingThings',
    summary: 'List the things a thing holds',
    tags: ['Things'],
    params: z.strictObject({ id: z.string() }),
    list: list(true),
    item: thing,
    read: async ({ params, query }) => (params.id === A ? pageOf(stored.slice(0, query.limit)) : null),
    notFound: 'Thing not found',
    present: (record: Thing, asShape) => (asShape ? { id: record._id } : { raw: record._id }),
  });

  it('reads the page the path and the query name, presenting each record', async () => {
    await expect(answer(partsList, { params: { id: A }, query: { limit: '1', transform: 'false' } })).resolves.toMatchObject({
      data: [{ raw: A }],
      meta: { totalCount: 1 },
    });
  });

  it('answers 404 with the message given where the path names nothing, and documents it', async () => {
    await expect(answer(partsList, { params: { id: B } })).rejects.toMatchObject({ status: 404, message: 'Thing not found' });
    expect(partsList.errors).toEqual([404]);
    expect(thingRoutes().routes.list.errors).toBeUndefined();
  });
});
