import { requestIdFrom } from './request-id';

describe('requestIdFrom', () => {
  it('keeps a short, plain token, underscores included, as the gateway and the services alike take it', () => {
    expect(requestIdFrom('client_req.42:a-B')).toBe('client_req.42:a-B');
    expect(requestIdFrom('x'.repeat(128))).toBe('x'.repeat(128));
  });

  it.each([[''], ['has space'], ['x'.repeat(129)], ['line\nbreak'], [undefined], [['a', 'b']]])('makes a new id instead of %j', (header) => {
    expect(requestIdFrom(header)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });
});
