import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OPENAPI_DOCUMENT_FILE, readOpenApiDocument } from './openapi';
import { startGateway, type RunningServer } from './testing/gateway-harness';

describe('/api/openapi.json', () => {
  let gateway: RunningServer;

  beforeAll(async () => {
    gateway = await startGateway({});
  });

  afterAll(() => gateway.close());

  it('serves the committed document, without asking any service', async () => {
    const response = await fetch(`${gateway.url}/api/openapi.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('cache-control')).toBe('public, max-age=300');
    expect(await response.text()).toBe(readFileSync(OPENAPI_DOCUMENT_FILE, 'utf8'));
  });
});

describe('readOpenApiDocument', () => {
  it('refuses a file that is not JSON, so the gateway does not start with it', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'openapi-')), 'openapi.json');
    writeFileSync(file, '{"openapi": "3.1.0",');
    expect(() => readOpenApiDocument(file)).toThrow(SyntaxError);
  });
});
