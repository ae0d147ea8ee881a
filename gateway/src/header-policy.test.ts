import type { ServerResponse } from 'node:http';
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

  it("makes a proxied answer's head of the service's headers that pass and the gateway's own, a service's value winning", () => {
    const policy = headerPolicy();
    const raw = ['Content-Type', 'application/json', 'X-Frame-Options', 'SAMEORIGIN', 'Connection', 'keep-alive', 'Transfer-Encoding', 'chunked'];
    raw.push(INTERNAL_HEADERS[0], '1', 'Access-Control-Allow-Origin', 'https://service.example', 'Set-Cookie', 'a=1', 'Set-Cookie', 'b=2');
    const head = policy.proxiedHead('req-1', raw, [['RateLimit', 'r=1']]);
    const pairs = head.flatMap((name, index) => (index % 2 === 0 ? [[name.toLowerCase(), head[index + 1]]] : []));
    const own = policy.gatewayHeadersBeside('req-1', [['x-frame-options', 'SAMEORIGIN']], [['RateLimit', 'r=1']]);
    expect(pairs).toEqual([
      ['content-type', 'application/json'],
      ['x-frame-options', 'SAMEORIGIN'],
      ['set-cookie', 'a=1'],
      ['set-cookie', 'b=2'],
      ...own.map(([name, value]) => [name.toLowerCase(), value]),
    ]);
  });

  it("sets the gateway's own headers on an answer but those its handler set", () => {
    const set = new Map<string, string>([['x-frame-options', 'SAMEORIGIN']]);
    const res = {
      hasHeader: (name: string) => set.has(name.toLowerCase()),
      setHeader: (name: string, value: string) => set.set(name.toLowerCase(), value),
    } as unknown as ServerResponse;
    headerPolicy().setOwnHeadersUnlessSet(res, 'req-1', [['RateLimit', 'r=1']]);
    expect(set.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(set.get('x-request-id')).toBe('req-1');
    expect(set.get('ratelimit')).toBe('r=1');
    expect(set.has('x-content-type-options')).toBe(true);
  });
});
