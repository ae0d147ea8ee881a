import { readFileSync } from 'node:fs';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { OPENAPI_DOCUMENT_FILE } from './openapi';
import { sendForBytes, startGateway, type RunningServer } from './testing/gateway-harness';

/** The OpenAPI document is the gateway's one document of its own: it goes out compressed, encoded once at start. */
describe('/api/openapi.json content codings', () => {
  const document = readFileSync(OPENAPI_DOCUMENT_FILE);
  const decode: Record<string, (body: Buffer) => Buffer> = { br: brotliDecompressSync, gzip: gunzipSync, identity: (body) => body };
  let gateway: RunningServer;
  const get = (headers: Record<string, string>, method = 'GET') => sendForBytes(`${gateway.url}/api/openapi.json`, { method, headers });

  beforeAll(async () => {
    gateway = await startGateway({});
  });

  afterAll(() => gateway.close());

  it.each([
    ['gzip, deflate, br', 'br'],
    ['gzip', 'gzip'],
    ['br;q=0.5, gzip', 'gzip'],
    ['*', 'br'],
    ['identity', 'identity'],
    ['', 'identity'],
  ])('answers Accept-Encoding %p with %s, decoding to the document', async (accept, coding) => {
    const answer = await get(accept ? { 'accept-encoding': accept } : {});
    expect(answer.status).toBe(200);
    expect(answer.headers['content-encoding']).toBe(coding === 'identity' ? undefined : coding);
    expect(answer.headers.vary).toBe('Accept-Encoding');
    expect(Number(answer.headers['content-length'])).toBe(answer.bytes.length);
    expect(decode[coding](answer.bytes).equals(document)).toBe(true);
  });

  it('sends the br form at a quarter of the size or less', async () => {
    expect((await get({ 'accept-encoding': 'br' })).bytes.length).toBeLessThan(document.length / 4);
  });

  it('names each form with an ETag of its own and answers its If-None-Match with 304, for GET and HEAD', async () => {
    const etags = new Map<string, string>();
    for (const coding of ['br', 'gzip', 'identity']) etags.set(coding, (await get({ 'accept-encoding': coding })).headers.etag!);
    expect(new Set(etags.values()).size).toBe(3);
    for (const [coding, etag] of etags) {
      for (const method of ['GET', 'HEAD']) {
        const unchanged = await get({ 'accept-encoding': coding, 'if-none-match': etag }, method);
        expect(unchanged).toMatchObject({ status: 304, bytes: Buffer.alloc(0) });
        expect(unchanged.headers).toMatchObject({ etag, vary: 'Accept-Encoding' });
        expect(unchanged.headers['content-encoding']).toBeUndefined();
      }
      const otherForm = await get({ 'accept-encoding': coding === 'br' ? 'gzip' : 'br', 'if-none-match': etag });
      expect(otherForm.status).toBe(200);
    }
  });

  it.each(['br', 'gzip', 'identity'])('answers HEAD for %s with the headers of GET and no body', async (coding) => {
    const [full, head] = [await get({ 'accept-encoding': coding }), await get({ 'accept-encoding': coding }, 'HEAD')];
    expect(head).toMatchObject({ status: 200, bytes: Buffer.alloc(0) });
    for (const name of ['content-type', 'content-length', 'content-encoding', 'etag', 'vary', 'cache-control']) {
      expect([name, head.headers[name]]).toEqual([name, full.headers[name]]);
    }
  });
});
