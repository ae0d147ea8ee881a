import type { TestArea } from '@ledger-api/runtime/testing';
import { startNftBase } from '../testing/gallery';

let area: TestArea;

beforeAll(async () => {
  area = await startNftBase([]);
});
afterAll(() => area.close());

describe('GET /nft/configurations', () => {
  it('answers the package versions and the NFT base constants', async () => {
    const { status, body } = await area.request('GET', '/nft/configurations');
    expect(status).toBe(200);
    expect(body).toEqual({
      data: {
        package: { name: '@ledger-api/nft-base', currentVersion: '1.0.0', latestVersion: '1.0.0' },
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
