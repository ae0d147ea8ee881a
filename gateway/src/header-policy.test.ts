import { INTERNAL_HEADERS } from '@ledger-api/http-core';
import { headerPolicy, keptHeadersOf, notModifiedHeadersOf, passesFromService } from './header-policy';

describe('the header policy', () => {
  it("passes a service's headers but those for the gateway alone and its CORS headers", () => {
    expect(passesFromService('etag')).toBe(true);
    expect(passesFromService('cache-control')).toBe(true);
    for (const internal of INTERNAL_HEADERS) expect(passesFromService(internal)).toBe(false);
    expect(passesFromService('access-control-allow-origin')).toBe(false);
  });

  it('keeps at the edge what passes, less the headers of one connection or one sending', () => {
    const kept = keptHeadersOf({
      'content-type': 'application/json',
      etag: '"v1"',
      date: 'Fri, 27 Nov 2026 20:00:00 GMT',
      connection: 'keep-alive',
      'x-request-id': 'first',
      'access-control-allow-origin': 'https://service.example',
      [INTERNAL_HEADERS[0]]: '1',
      vary: undefined,
    });
    expect(kept).toEqual([
      ['content-type', 'application/json'],
      ['etag', '"v1"'],
    ]);
    expect(notModifiedHeadersOf(kept)).toEqual([['etag', '"v1"']]);
  });

  it("sets the gateway's own headers first on an edge answer, leaving out those the service sent itself", () => {
    const policy = headerPolicy();
    const own = policy.gatewayHeadersBeside('req-1', [['x-frame-options', 'SAMEORIGIN']], [['RateLimit', 'r=1']]);
    const names = own.map(([name]) => name.toLowerCase());
    expect(own[0]).toEqual(['X-Request-Id', 'req-1']);
    expect(names).toContain('access-control-allow-origin');
    expect(names).toContain('x-content-type-options');
    expect(names[names.length - 1]).toBe('ratelimit');
    const withoutService = policy.gatewayHeadersBeside('req-2', [], []).map(([name]) => name.toLowerCase());
    expect(withoutService.filter((name) => !names.includes(name))).toEqual(['x-frame-options']);
  });
});
