import { buildOpenApiDocument, defineRoute, transactionIdParams, type AnyRoute } from '@ledger-api/http';
import { z } from 'zod';
import { buildPublicOpenApiDocument, mergeOpenApiDocuments, type ServiceDocument } from './gateway-document';

const thing = z.object({ id: z.string() }).meta({ id: 'Thing' });

function route(spec: Partial<AnyRoute> & Pick<AnyRoute, 'path'>): AnyRoute {
  return defineRoute({
    method: 'get',
    summary: 'A route',
    tags: ['NFT assets'],
    response: z.object({ data: thing }),
    handler: async () => ({}),
    ...spec,
  });
}

const serviceDocument = (...routes: AnyRoute[]): ServiceDocument => buildOpenApiDocument({ title: 'Area', version: '1.0.0' }, routes);

const assets = serviceDocument(
  route({ path: '/nft/assets', operationId: 'listAssets' }),
  route({ path: '/nft/assets/:id', operationId: 'getAsset', params: transactionIdParams, errors: [404] }),
);
const groups = serviceDocument(route({ path: '/guardian/groups', operationId: 'listGroups', tags: ['Guardian groups'] }));

describe('mergeOpenApiDocuments', () => {
  it('prefixes every path with /api and unites components and tags', () => {
    const merged = mergeOpenApiDocuments([groups, assets]);
    expect(Object.keys(merged.paths)).toEqual(['/api/guardian/groups', '/api/nft/assets', '/api/nft/assets/{id}']);
    expect(merged.tags).toEqual([{ name: 'Guardian groups' }, { name: 'NFT assets' }]);
    expect(Object.keys(merged.components.schemas)).toEqual(['Error', 'Thing']);
    expect(merged.components.responses).toHaveProperty('NotFound');
  });

  it('refuses two services defining one component differently', () => {
    const other = serviceDocument(route({ path: '/nft/burns', response: z.object({ data: z.object({ name: z.string() }).meta({ id: 'Thing' }) }) }));
    expect(() => mergeOpenApiDocuments([assets, other])).toThrow('Services define the schemas component "Thing" differently');
  });
});

describe('buildPublicOpenApiDocument', () => {
  const document = buildPublicOpenApiDocument([groups, assets]);
  const getAsset = document.paths['/api/nft/assets/{id}'].get;

  it('says what the API is, where it is served and that it needs no credentials', () => {
    expect(document).toMatchObject({
      openapi: '3.1.0',
      info: { title: 'Ledger Query API', version: expect.any(String), license: { name: 'MIT', identifier: 'MIT' } },
      servers: [{ url: '/' }],
      security: [],
    });
    expect(document.info.description).toContain('## Lists and paging');
    expect(document.info.description).toContain('empty `cursor=` for the first page');
  });

  it('describes every tag', () => {
    expect(document.tags.map(({ name }) => name)).toEqual(['Guardian groups', 'NFT assets']);
    for (const tag of document.tags) expect(tag.description.length).toBeGreaterThan(10);
  });

  it('adds the answers of the gateway itself to every operation', () => {
    expect(Object.keys(getAsset.responses)).toEqual(['200', '304', '400', '404', '408', '422', '429', '431', '502', '503']);
    expect(getAsset.responses['429']).toEqual({ $ref: '#/components/responses/TooManyRequests' });
    const tooMany = document.components.responses.TooManyRequests as { headers: object; content: Record<string, { examples: object }> };
    expect(Object.keys(tooMany.headers)).toEqual(expect.arrayContaining(['Retry-After', 'RateLimit', 'X-RateLimit-Remaining']));
    expect(Object.values(tooMany.content['application/json'].examples)).toEqual([
      { value: { statusCode: 429, error: 'Too Many Requests', message: expect.stringContaining('Rate limit') } },
    ]);
  });

  it("gives a live stream the gateway's answers: its 429 is the rate limit, as its own limits answer a 200 stream", () => {
    const withStream = buildOpenApiDocument({ title: 'NFT', version: '1.0.0' }, [], { liveEvents: { basePath: '/nft', tag: 'NFT live events' } });
    const stream = buildPublicOpenApiDocument([withStream]).paths['/api/nft/events'].get;
    expect(stream.responses['429']).toEqual({ $ref: '#/components/responses/TooManyRequests' });
    expect(stream.responses['502']).toEqual({ $ref: '#/components/responses/BadGateway' });
    expect(stream.responses['503']).toBeUndefined();
  });

  it('puts the rate-limit headers on the answers the gateway gives, not on refusals of unread requests', () => {
    const headersOf = (response: unknown) => Object.keys((response as { headers: object }).headers);
    expect(headersOf(getAsset.responses['200'])).toEqual(expect.arrayContaining(['X-Block-Height', 'ETag', 'RateLimit', 'RateLimit-Policy']));
    expect(headersOf(document.components.responses.NotFound)).toContain('RateLimit');
    expect(headersOf(document.components.responses.RequestTimeout)).not.toContain('RateLimit');
    expect(document.components.headers).toHaveProperty(['X-RateLimit-Reset', 'schema'], { type: 'integer' });
  });

  it('refuses an operation without an operationId, or two operations with the same one', () => {
    expect(() => buildPublicOpenApiDocument([serviceDocument(route({ path: '/nft/burns' }))])).toThrow(
      'GET /api/nft/burns has no operationId: declare one in its defineRoute',
    );
    expect(() => buildPublicOpenApiDocument([assets, serviceDocument(route({ path: '/nft/burns', operationId: 'listAssets' }))])).toThrow(
      'The operationId listAssets is used twice',
    );
  });

  it('refuses a tag it cannot describe', () => {
    const untagged = serviceDocument(route({ path: '/nft/burns', operationId: 'listBurns', tags: ['Odds and ends'] }));
    expect(() => buildPublicOpenApiDocument([untagged])).toThrow('The tag "Odds and ends" has no description');
  });
});
