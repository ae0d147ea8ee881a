import { mergeOpenApiDocuments, type MergedDocument, type ServiceDocument } from './openapi';
import { refusingUrl, startFakeService, startGateway, type FakeService, type RunningServer } from './testing/gateway-harness';

const errorSchema = { type: 'object', properties: { statusCode: { type: 'integer' } } };

function serviceDocument(area: string, tag: string, extraSchemas: Record<string, unknown> = {}) {
  return {
    openapi: '3.1.0',
    info: { title: area, version: '1.0.0' },
    tags: [{ name: tag }, { name: 'shared' }],
    paths: {
      [`/${area}/items`]: { get: { tags: [tag], responses: { '200': { description: 'OK' } } } },
      [`/${area}/items/{id}`]: { get: { tags: [tag], responses: { '404': { $ref: '#/components/responses/NotFound' } } } },
    },
    components: {
      schemas: { Error: errorSchema, ...extraSchemas },
      responses: { NotFound: { description: 'Not Found' } },
    },
  };
}

describe('mergeOpenApiDocuments', () => {
  it('prefixes every path with /api and unites components and tags', () => {
    const guardian = serviceDocument('guardian', 'groups', { Group: { type: 'object' } }) as ServiceDocument;
    const exchange = serviceDocument('nft/exchange', 'auctions', { Auction: { type: 'object' } }) as ServiceDocument;
    const merged = mergeOpenApiDocuments([guardian, exchange], []);
    expect(Object.keys(merged.paths)).toEqual([
      '/api/guardian/items',
      '/api/guardian/items/{id}',
      '/api/nft/exchange/items',
      '/api/nft/exchange/items/{id}',
    ]);
    expect(merged.components.schemas).toEqual({ Error: errorSchema, Group: { type: 'object' }, Auction: { type: 'object' } });
    expect(merged.components.responses).toEqual({ NotFound: { description: 'Not Found' } });
    expect(merged.tags).toEqual([{ name: 'groups' }, { name: 'shared' }, { name: 'auctions' }]);
    expect(merged).toMatchObject({ openapi: '3.1.0', servers: [{ url: '/' }], info: { title: expect.any(String), version: expect.any(String) } });
    expect(merged).not.toHaveProperty('x-unavailable-areas');
  });

  it('keeps the first of two different definitions of a name and reports the clash', () => {
    const first = serviceDocument('guardian', 'a', { Page: { type: 'object' } }) as ServiceDocument;
    const second = serviceDocument('nft', 'b', { Page: { type: 'array' } }) as ServiceDocument;
    const clashes: string[] = [];
    const merged = mergeOpenApiDocuments([first, second], ['nft-exchange'], (section, name) => clashes.push(`${section}.${name}`));
    expect(merged.components.schemas.Page).toEqual({ type: 'object' });
    expect(clashes).toEqual(['schemas.Page']);
    expect(merged['x-unavailable-areas']).toEqual(['nft-exchange']);
  });
});

describe('/api/openapi.json', () => {
  const servers: RunningServer[] = [];

  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });

  async function documentService(name: string, document: unknown): Promise<FakeService> {
    const service = await startFakeService(name, (req, res) => {
      res.writeHead(req.url === '/openapi.json' ? 200 : 404, { 'content-type': 'application/json' }).end(JSON.stringify(document));
    });
    servers.push(service);
    return service;
  }

  it('serves the merged document of the reachable areas and names the unreachable one', async () => {
    const guardian = await documentService('guardian', serviceDocument('guardian', 'groups'));
    const nftBase = await documentService('nft-base', serviceDocument('nft', 'assets'));
    const gateway = await startGateway({ GUARDIAN_URL: guardian.url, NFT_BASE_URL: nftBase.url, NFT_EXCHANGE_URL: await refusingUrl() });
    servers.push(gateway);

    const response = await fetch(`${gateway.url}/api/openapi.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const document = (await response.json()) as MergedDocument;
    expect(Object.keys(document.paths)).toEqual(['/api/guardian/items', '/api/guardian/items/{id}', '/api/nft/items', '/api/nft/items/{id}']);
    expect(document.tags.map(({ name }) => name)).toEqual(['groups', 'shared', 'assets']);
    expect(document['x-unavailable-areas']).toEqual(['nft-exchange']);
    expect(document.servers).toEqual([{ url: '/' }]);
  });

  it('leaves out a service whose answer is not an OpenAPI 3.1 document', async () => {
    const guardian = await documentService('guardian', serviceDocument('guardian', 'groups'));
    const nftBase = await documentService('nft-base', { swagger: '2.0' });
    const gateway = await startGateway({ GUARDIAN_URL: guardian.url, NFT_BASE_URL: nftBase.url });
    servers.push(gateway);
    const document = (await (await fetch(`${gateway.url}/api/openapi.json`)).json()) as MergedDocument;
    expect(Object.keys(document.paths)).toEqual(['/api/guardian/items', '/api/guardian/items/{id}']);
    expect(document['x-unavailable-areas']).toEqual(['nft-base']);
  });

  it('reuses the merged document while it is fresh', async () => {
    const guardian = await documentService('guardian', serviceDocument('guardian', 'groups'));
    const gateway = await startGateway({ GUARDIAN_URL: guardian.url }, { openApiCacheTtlMs: 60_000 });
    servers.push(gateway);
    const answers = await Promise.all([1, 2, 3].map(() => fetch(`${gateway.url}/api/openapi.json`).then((response) => response.json())));
    await fetch(`${gateway.url}/api/openapi.json`);
    expect(answers[0]).toEqual(answers[2]);
    expect(guardian.received.filter(({ url }) => url === '/openapi.json')).toHaveLength(1);
  });
});
