import { createLedgerApiClient, type LedgerApiClient, type Schemas } from '@ledger-api/client';
import { getJson } from '../support/processes';
import { startLocalStack, type LocalStack } from '../support/local-stack';
import { foreignRequests, openHeadlessPage, type HeadlessPage } from './headless-chromium';

/**
 * The API as a client developer meets it, on `npm start`'s stack: the reference page at
 * /api/docs in a headless browser, and the typed client generated from the same document.
 */
let stack: LocalStack;

beforeAll(async () => {
  stack = await startLocalStack({ blocks: 60 });
}, 150_000);

afterAll(async () => {
  expect(await stack.stop()).toBe(0);
});

interface DocumentedOperation {
  method: string;
  path: string;
  operationId: string;
}

type OpenApiPaths = Record<string, Record<string, { operationId: string }>>;

async function documentedOperations(): Promise<DocumentedOperation[]> {
  const { body } = await getJson(`${stack.gateway}/api/openapi.json`);
  return Object.entries(body.paths as OpenApiPaths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, { operationId }]) => ({ method: method.toUpperCase(), path, operationId })),
  );
}

const byOperationId = (a: DocumentedOperation, b: DocumentedOperation) => (a.operationId < b.operationId ? -1 : 1);

describe('the API reference page at /api/docs', () => {
  let browser: HeadlessPage;

  beforeAll(async () => {
    browser = await openHeadlessPage();
    await browser.page.goto(`${stack.gateway}/api/docs`);
  });

  afterAll(() => browser?.close());

  it('shows every operation of the OpenAPI document', async () => {
    const documented = await documentedOperations();
    const { page } = browser;
    // Swagger UI renders the operations after fetching the document; wait for as many as it describes.
    await page
      .locator('.opblock')
      .nth(documented.length - 1)
      .waitFor();
    const shown = await page.$$eval('.opblock', (blocks) =>
      blocks.map((block) => ({
        method: block.querySelector('.opblock-summary-method')?.textContent ?? '',
        path: block.querySelector('.opblock-summary-path')?.getAttribute('data-path') ?? '',
        operationId: block.querySelector('.opblock-summary-operation-id')?.textContent ?? '',
      })),
    );
    expect(documented.map(({ operationId }) => operationId)).toEqual(expect.arrayContaining(['listGroups', 'listAssets', 'searchAuctions']));
    expect(shown.sort(byOperationId)).toEqual(documented.sort(byOperationId));
  });

  it('runs an operation against the gateway it is served from', async () => {
    const { page } = browser;
    const operation = page.locator('#operations-Guardian_groups-listGroups');
    await operation.locator('.opblock-summary').click();
    await operation.locator('.try-out__btn').click();
    await operation.locator('.execute').click();
    const status = operation.locator('.live-responses-table tbody .response-col_status');
    await status.waitFor();
    expect(await status.textContent()).toBe('200');
  });

  it('asked no host but 127.0.0.1 for anything and reported no error', () => {
    expect(browser.requested.length).toBeGreaterThan(0);
    expect(foreignRequests(browser.requested)).toEqual([]);
    expect(browser.errors).toEqual([]);
  });
});

describe('the typed client', () => {
  let client: LedgerApiClient;

  beforeAll(() => {
    client = createLedgerApiClient(stack.gateway);
  });

  it('lists, gets by id and searches', async () => {
    const listed = await client.GET('/api/nft/assets', { params: { query: { limit: 2 } } });
    expect(listed.response.status).toBe(200);
    expect(listed.data?.meta).toMatchObject({ count: 2, totalCountIsEstimate: true, self: '/nft/assets?limit=2&transform=true&page=1' });
    const asset = listed.data?.data[0] as Schemas['Asset'];

    const byId = await client.GET('/api/nft/assets/{id}', { params: { path: { id: asset.id } } });
    expect(byId.data?.data).toMatchObject({ id: asset.id, collectionId: asset.collectionId, attributes: asset.attributes });

    const found = await client.POST('/api/nft/assets/search', { params: { query: { limit: 100 } }, body: asset.attributes });
    expect(found.response.status).toBe(200);
    expect(found.data?.data.map((match) => match.id)).toContain(asset.id);
  });

  it('reads the NFT transfers as the anchor serves them: list, by id, raw and in a batch', async () => {
    const listed = await client.GET('/api/nft/transfers', { params: { query: { limit: 2, orderBy: 'blockHeight:desc' } } });
    expect(listed.response.status).toBe(200);
    expect(listed.data?.meta).toMatchObject({ count: 2, self: '/nft/transfers?limit=2&orderBy=blockHeight%3Adesc&transform=true&page=1' });
    const [newest, older] = listed.data!.data as Schemas['Transfer'][];
    expect(newest.nftTransfer.nftIds.length).toBeGreaterThan(0);

    const byId = await client.GET('/api/nft/transfers/{id}', { params: { path: { id: newest.id } } });
    expect(byId.data?.data).toEqual(newest);
    const raw = await client.GET('/api/nft/transfers/{id}', { params: { path: { id: newest.id }, query: { transform: false } } });
    expect(raw.data?.data).toMatchObject({ id: newest.id, typeGroup: 9000, type: 2, asset: { nftTransfer: newest.nftTransfer } });

    const batch = await client.POST('/api/nft/transfers/batch', { body: { ids: [older.id, '0'.repeat(64), newest.id] } });
    expect(batch.data?.data).toEqual([older, null, newest]);

    const unknown = await client.GET('/api/nft/transfers/{id}', { params: { path: { id: '0'.repeat(64) } } });
    expect(unknown.error).toEqual({ statusCode: 404, error: 'Not Found', message: 'Transfer not found' });
  });

  it('answers with the headers the document says every answer of an operation has', async () => {
    const { body } = await getJson(`${stack.gateway}/api/openapi.json`);
    const headers = body.components.headers as Record<string, { required?: boolean }>;
    const documented = Object.keys(body.paths['/api/nft/collections'].get.responses['200'].headers).filter((name) => headers[name].required);
    expect(documented).toEqual(expect.arrayContaining(['X-Block-Height', 'ETag', 'X-Request-Id', 'Cache-Control']));
    const { response } = await client.GET('/api/nft/collections', { params: { query: { limit: 1 } } });
    expect(documented.filter((name) => !response.headers.has(name))).toEqual([]);
  });

  it('gives the error body for an unknown id and for an invalid query', async () => {
    const unknown = await client.GET('/api/nft/assets/{id}', { params: { path: { id: '0'.repeat(64) } } });
    expect(unknown.response.status).toBe(404);
    expect(unknown.error).toEqual({ statusCode: 404, error: 'Not Found', message: 'Asset not found' });

    const invalid = await client.GET('/api/guardian/groups', { params: { query: { limit: 0 } } });
    expect(invalid.response.status).toBe(422);
    expect(invalid.error).toEqual({ statusCode: 422, error: 'Unprocessable Entity', message: '"limit" must be greater than or equal to 1' });
  });
});
