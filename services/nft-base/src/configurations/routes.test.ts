import { join } from 'node:path';
import { packageOf } from '@ledger-api/runtime';
import type { TestArea } from '@ledger-api/runtime/testing';
import { startNftBase } from '../testing/gallery';

let area: TestArea;

beforeAll(async () => {
  area = await startNftBase([]);
});
afterAll(() => area.close());

describe('GET /nft/configurations', () => {
  it("answers the service's package versions, by its manifest, and the NFT base constants", async () => {
    const { name, version } = packageOf(join(__dirname, '..'));
    const { status, body } = await area.request('GET', '/nft/configurations');
    expect(status).toBe(200);
    expect(body).toEqual({
      data: {
        package: { name, currentVersion: version, latestVersion: version },
        crypto: {
          defaults: {
            nftBaseTypeGroup: 9000,
            nftCollectionName: { minLength: 5, maxLength: 40 },
            nftCollectionDescription: { minLength: 5, maxLength: 80 },
            nftCollectionAllowedIssuers: { minItems: 1, maxItems: 10 },
            nftTransfer: { minItems: 1, maxItems: 10 },
          },
        },
        transactions: { defaults: {} },
      },
    });
  });

  it('refuses query parameters', async () => {
    expect((await area.request('GET', '/nft/configurations?transform=true')).body).toEqual({
      statusCode: 422,
      error: 'Unprocessable Entity',
      message: '"transform" is not allowed',
    });
  });
});
