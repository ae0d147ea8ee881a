import { UNTIL_DATA_CHANGES, VALIDITY_HEADER } from '@ledger-api/http';
import { startTestArea } from '@ledger-api/runtime/testing';
import { nftExchangeArea } from './service';

describe('nftExchangeArea', () => {
  it('serves the exchange configuration constants', async () => {
    const area = await startTestArea(nftExchangeArea);
    try {
      const { status, body, headers } = await area.request('GET', '/nft/exchange/configurations');
      expect(status).toBe(200);
      expect(headers['x-block-height']).toBe('0');
      expect(body).toEqual({
        data: {
          package: { name: '@ledger-api/nft-exchange', currentVersion: nftExchangeArea.version, latestVersion: nftExchangeArea.version },
          crypto: { defaults: { nftExchangeTypeGroup: 9001, nftAuction: { minItems: 1, maxItems: 10 } } },
          transactions: { defaults: { safetyDistance: 51 } },
        },
      });
    } finally {
      await area.close();
    }
  });

  it('answers empty pages on an empty ledger and 404 for unknown paths', async () => {
    const area = await startTestArea(nftExchangeArea);
    try {
      for (const path of [
        '/nft/exchange/auctions',
        '/nft/exchange/auctions/canceled',
        '/nft/exchange/bids',
        '/nft/exchange/bids/canceled',
        '/nft/exchange/trades',
      ]) {
        const { body } = await area.request('GET', path);
        expect(body.meta).toMatchObject({ count: 0, pageCount: 1, totalCount: 0, next: null, previous: null });
      }
      expect((await area.request('GET', '/nft/exchange/nope')).body).toEqual({ statusCode: 404, error: 'Not Found', message: 'Not Found' });
      expect(await area.request('GET', '/nft/exchange/auctions/search')).toMatchObject({
        status: 404,
        body: { statusCode: 404, error: 'Not Found', message: 'Not Found' },
      });
    } finally {
      await area.close();
    }
  });

  it('marks its pages as holding until the area’s data changes, but those that evaluate expiry at the height or walk a list', async () => {
    const area = await startTestArea(nftExchangeArea);
    try {
      const validity = async (method: 'GET' | 'POST', path: string) =>
        (await area.request(method, path, method === 'POST' ? {} : undefined)).headers[VALIDITY_HEADER];
      expect(await validity('GET', '/nft/exchange/auctions')).toBe(UNTIL_DATA_CHANGES);
      expect(await validity('POST', '/nft/exchange/auctions/search')).toBe(UNTIL_DATA_CHANGES);
      expect(await validity('GET', '/nft/exchange/bids')).toBe(UNTIL_DATA_CHANGES);
      for (const path of ['/nft/exchange/auctions?expired=false', '/nft/exchange/bids?cursor='])
        expect([path, await validity('GET', path)]).toEqual([path, undefined]);
      expect(await validity('POST', '/nft/exchange/auctions/search?expired=true')).toBeUndefined();
    } finally {
      await area.close();
    }
  });

  it('lists all nineteen exchange endpoints in its OpenAPI document', async () => {
    const area = await startTestArea(nftExchangeArea);
    try {
      const { body } = await area.request('GET', '/openapi.json');
      const operations = Object.entries(body.paths as Record<string, object>).flatMap(([path, methods]) =>
        Object.keys(methods).map((method) => `${method} ${path}`),
      );
      expect(operations.sort()).toEqual(
        [
          'get /nft/exchange/auctions',
          'get /nft/exchange/auctions/{id}',
          'get /nft/exchange/auctions/{id}/wallets',
          'post /nft/exchange/auctions/search',
          'post /nft/exchange/auctions/batch',
          'get /nft/exchange/auctions/canceled',
          'get /nft/exchange/auctions/canceled/{id}',
          'get /nft/exchange/bids',
          'get /nft/exchange/bids/{id}',
          'get /nft/exchange/bids/{id}/wallets',
          'post /nft/exchange/bids/search',
          'post /nft/exchange/bids/batch',
          'get /nft/exchange/bids/canceled',
          'get /nft/exchange/bids/canceled/{id}',
          'get /nft/exchange/trades',
          'get /nft/exchange/trades/{id}',
          'post /nft/exchange/trades/search',
          'post /nft/exchange/trades/batch',
          'get /nft/exchange/configurations',
        ].sort(),
      );
    } finally {
      await area.close();
    }
  });
});
