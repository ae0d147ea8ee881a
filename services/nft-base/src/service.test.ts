import { UNTIL_DATA_CHANGES, VALIDITY_HEADER } from '@ledger-api/http';
import type { TestArea } from '@ledger-api/runtime/testing';
import { galleryLedger, startNftBase } from './testing/gallery';

let area: TestArea;

beforeAll(async () => {
  area = await startNftBase(galleryLedger().ledger.events);
});
afterAll(() => area.close());

describe('nft-base area', () => {
  it('documents all twenty routes in its OpenAPI document', async () => {
    const { status, body } = await area.request('GET', '/openapi.json');
    expect(status).toBe(200);
    const operations = Object.entries(body.paths as Record<string, object>).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method} ${path}`),
    );
    expect(operations.sort()).toEqual([
      'get /nft/assets',
      'get /nft/assets/wallet/{id}',
      'get /nft/assets/{id}',
      'get /nft/assets/{id}/wallets',
      'get /nft/burns',
      'get /nft/burns/{id}',
      'get /nft/collections',
      'get /nft/collections/{id}',
      'get /nft/collections/{id}/assets',
      'get /nft/collections/{id}/schema',
      'get /nft/collections/{id}/wallets',
      'get /nft/configurations',
      'get /nft/transfers',
      'get /nft/transfers/{id}',
      'post /nft/assets/batch',
      'post /nft/assets/search',
      'post /nft/burns/batch',
      'post /nft/collections/batch',
      'post /nft/collections/search',
      'post /nft/transfers/batch',
    ]);
    const walletFlags = body.paths['/nft/assets/wallet/{id}'].get.parameters.map((parameter: { name: string }) => parameter.name);
    expect(walletFlags).toEqual(expect.arrayContaining(['id', 'page', 'limit', 'offset', 'orderBy', 'transform', 'inAuction', 'inExpiredAuction']));
  });

  it('answers 404 for an unknown path and ignores a trailing slash', async () => {
    expect(await area.request('GET', '/nft/tokens')).toMatchObject({
      status: 404,
      body: { statusCode: 404, error: 'Not Found', message: 'Not Found' },
    });
    expect((await area.request('GET', '/nft/collections/')).status).toBe(200);
    expect((await area.request('GET', '/nft/assets')).headers['x-block-height']).toBe('3');
  });

  it('marks a wallet’s assets as holding until the area’s data changes, but with inAuction, which evaluates expiry at the height', async () => {
    const wallet = `/nft/assets/wallet/${galleryLedger().alice.publicKey}`;
    const validity = async (path: string) => (await area.request('GET', path)).headers[VALIDITY_HEADER];
    expect(await validity(wallet)).toBe(UNTIL_DATA_CHANGES);
    expect(await validity(`${wallet}?inAuction=true`)).toBeUndefined();
  });
});
