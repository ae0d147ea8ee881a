import { cachePrefix } from './service';

describe('cachePrefix', () => {
  it('separates pages by area, release and network version', () => {
    const area = { area: 'nft-base', version: '1.2.0' } as Parameters<typeof cachePrefix>[0];
    expect(cachePrefix(area, { NETWORK_VERSION: 23 })).toBe('ledger-api:nft-base:1.2.0:23:');
    expect(cachePrefix({ ...area, version: '1.3.0' }, { NETWORK_VERSION: 23 })).not.toBe(cachePrefix(area, { NETWORK_VERSION: 23 }));
    expect(cachePrefix(area, { NETWORK_VERSION: 30 })).not.toBe(cachePrefix(area, { NETWORK_VERSION: 23 }));
  });
});
