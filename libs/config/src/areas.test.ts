import { AREAS, areaNamed } from './areas';

describe('the list of areas', () => {
  it.each([
    'name',
    'basePath',
    'entry',
    'defaultPort',
    'defaultAdminPort',
    'portVariable',
    'adminPortVariable',
    'urlVariable',
    'adminUrlVariable',
  ] as const)('gives each area its own %s', (key) => {
    const values = AREAS.map((area) => area[key]);
    expect(new Set(values).size).toBe(AREAS.length);
  });

  it('finds an area by its name', () => {
    expect(areaNamed('nft-exchange')).toMatchObject({ basePath: '/nft/exchange', urlVariable: 'NFT_EXCHANGE_URL' });
  });
});
