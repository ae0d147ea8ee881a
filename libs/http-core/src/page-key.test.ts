import { pageRequestKey } from './page-key';

describe('pageRequestKey', () => {
  it('names a request by method, path, query string and body', () => {
    expect(pageRequestKey({ method: 'GET', path: '/nft/assets', querystring: 'limit=5' })).toBe('GET /nft/assets?limit=5 ');
    expect(pageRequestKey({ method: 'POST', path: '/nft/assets/search', querystring: '', body: '{"a":1}' })).toBe('POST /nft/assets/search? {"a":1}');
  });

  it('answers HEAD from the page of GET', () => {
    const request = { path: '/guardian/groups', querystring: 'orderBy=name' };
    expect(pageRequestKey({ method: 'HEAD', ...request })).toBe(pageRequestKey({ method: 'GET', ...request }));
  });

  it('keeps apart requests that differ only in the query string or the body', () => {
    const keys = new Set([
      pageRequestKey({ method: 'GET', path: '/a', querystring: '' }),
      pageRequestKey({ method: 'GET', path: '/a', querystring: 'x=1' }),
      pageRequestKey({ method: 'POST', path: '/a', querystring: '', body: '{}' }),
      pageRequestKey({ method: 'POST', path: '/a', querystring: '', body: '{"x":1}' }),
    ]);
    expect(keys.size).toBe(4);
  });
});
