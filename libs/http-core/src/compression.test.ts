import { randomBytes } from 'node:crypto';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { COMPRESSION_THRESHOLD_BYTES, encodeVariant, encodeVariants, negotiateEncoding } from './compression';

describe('negotiateEncoding', () => {
  it.each([
    [undefined, 'identity'],
    ['', 'identity'],
    ['gzip, deflate, br', 'br'],
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip', 'gzip'],
    ['GZIP', 'gzip'],
    ['deflate', 'identity'],
    ['identity', 'identity'],
  ])('answers %p with %s', (header, coding) => {
    expect(negotiateEncoding(header)).toBe(coding);
  });

  it.each([
    ['br;q=0.5, gzip', 'gzip'],
    ['gzip;q=0.8, br;q=0.9', 'br'],
    ['br;q=0, gzip;q=0.1', 'gzip'],
    ['gzip;q=0.5, identity', 'identity'],
  ])('follows the q-values of %p: %s', (header, coding) => {
    expect(negotiateEncoding(header)).toBe(coding);
  });

  it.each([
    ['*', 'br'],
    ['gzip, *;q=0.1', 'gzip'],
    ['br;q=0, *', 'gzip'],
  ])('reads %p as any other coding: %s', (header, coding) => {
    expect(negotiateEncoding(header)).toBe(coding);
  });

  it.each(['identity;q=0, *;q=0', 'br;q=0, gzip;q=0, identity;q=0', 'zstd'])('answers plain when %p accepts nothing it has', (header) => {
    expect(negotiateEncoding(header)).toBe('identity');
  });

  it('gives the same answer for a header it has seen before', () => {
    const header = 'gzip;q=0.7, br;q=0.6';
    expect([negotiateEncoding(header), negotiateEncoding(header)]).toEqual(['gzip', 'gzip']);
  });
});

const PAGE = JSON.stringify({
  data: Array.from({ length: 50 }, (_, index) => ({ id: index.toString(16).padStart(64, '0'), name: `asset ${index}` })),
});

describe('encodeVariants', () => {
  it('makes br and gzip forms of a body over 1 KB, each with an ETag of its own', async () => {
    const { br, gzip, identity } = await encodeVariants(PAGE);
    expect(identity).toEqual({ encoding: 'identity', etag: expect.stringMatching(/^"[\w-]{27}"$/), body: Buffer.from(PAGE) });
    expect(br.encoding).toBe('br');
    expect(brotliDecompressSync(br.body).toString()).toBe(PAGE);
    expect(gzip.encoding).toBe('gzip');
    expect(gunzipSync(gzip.body).toString()).toBe(PAGE);
    expect(br.body.length).toBeLessThan(PAGE.length / 4);
    expect(br.etag).toBe(`${identity.etag.slice(0, -1)}-br"`);
    expect(gzip.etag).toBe(`${identity.etag.slice(0, -1)}-gzip"`);
  });

  it('leaves a body of 1 KB or less plain under every coding', async () => {
    const small = 'x'.repeat(COMPRESSION_THRESHOLD_BYTES);
    const variants = await encodeVariants(small);
    expect(variants.br).toBe(variants.identity);
    expect(variants.gzip).toBe(variants.identity);
    expect((await encodeVariants(`${small}x`)).br.encoding).toBe('br');
  });

  it('leaves a body plain when compressing would not shrink it', async () => {
    const variants = await encodeVariants(randomBytes(4096));
    expect(variants.br).toBe(variants.identity);
    expect(variants.gzip).toBe(variants.identity);
  });

  it('makes one form alike when asked for just that one', async () => {
    const all = await encodeVariants(PAGE);
    expect(await encodeVariant(PAGE, 'gzip')).toEqual(all.gzip);
    expect(await encodeVariant(PAGE, 'identity')).toEqual(all.identity);
  });
});
