import fc from 'fast-check';
import { shownAs } from './shown';

/** Requests written byte by byte: any method token, broken request lines and framing, oversized heads, stalls. */
export const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH', 'FOO', 'TRACE', 'PROPFIND', 'get', 'M-SEARCH', 'PURGE', 'BREW'];

export interface RawCase {
  bytes: Buffer;
  head?: boolean;
}

const CRLF = '\r\n';
const request = (head: string[], body = '') => Buffer.from(head.join(CRLF) + CRLF + CRLF + body, 'latin1');
const rawCase = (bytes: Buffer, details: Omit<RawCase, 'bytes'> = {}): RawCase => shownAs({ bytes, ...details }, bytes);
const hostLine = 'Host: 127.0.0.1';

/** One request with `method` on `path`; a body with the methods that usually carry one. */
export function methodRequest(method: string, path: string, withBody: boolean): RawCase {
  const body = withBody ? '{}' : '';
  const head = [`${method} ${path} HTTP/1.1`, hostLine, 'Connection: close'];
  if (withBody) head.push('Content-Type: application/json', `Content-Length: ${body.length}`);
  return rawCase(request(head, body), { head: method === 'HEAD' });
}

function badRequestLines(path: string): fc.Arbitrary<RawCase> {
  return fc
    .constantFrom(
      'GET',
      `GET ${path}`,
      `GET ${path} HTTP/9.9`,
      `GET ${path} HTTP/1.1 extra`,
      `GET  ${path} HTTP/1.1`,
      `GET ${path}\tHTTP/1.1`,
      ` GET ${path} HTTP/1.1`,
      `GET http://example.invalid${path} HTTP/1.1`,
      `GET ${path}/\u00e9\u00ff HTTP/1.1`,
      `GET ${path}?a=\u0000 HTTP/1.1`,
      'OPTIONS * HTTP/1.1',
      `GET ${path.replace(/^\//, '')} HTTP/1.1`,
      `\u0016\u0003\u0001\u0002\u0000\u0001\u0000\u0001\u00fc\u0003\u0003`,
      `G\u00c9T ${path} HTTP/1.1`,
    )
    .map((line) => rawCase(request([line, hostLine, 'Connection: close'])));
}

function badFraming(path: string): fc.Arbitrary<RawCase> {
  const post = (headers: string[], body: string) =>
    rawCase(request([`POST ${path} HTTP/1.1`, hostLine, 'Content-Type: application/json', 'Connection: close', ...headers], body));
  return fc.constantFrom(
    post(['Transfer-Encoding: chunked'], 'zz\r\n{}\r\n0\r\n\r\n'),
    post(['Transfer-Encoding: chunked'], '5\r\n{}\r\n0\r\n\r\n'),
    post(['Transfer-Encoding: chunked'], 'ffffffffffffffffff\r\n{}\r\n0\r\n\r\n'),
    post(['Transfer-Encoding: chunked', 'Content-Length: 2'], '2\r\n{}\r\n0\r\n\r\n'),
    post(['Transfer-Encoding: gzip, chunked'], '2\r\n{}\r\n0\r\n\r\n'),
    post(['Transfer-Encoding: chunked', 'Transfer-Encoding: identity'], '2\r\n{}\r\n0\r\n\r\n'),
    post(['Content-Length: abc'], '{}'),
    post(['Content-Length: -1'], '{}'),
    post(['Content-Length: 2', 'Content-Length: 3'], '{}'),
    post(['Content-Length : 2'], '{}'),
    post(['Bad Header: x', 'Content-Length: 2'], '{}'),
    post(['NoColon', 'Content-Length: 2'], '{}'),
    post(['X-Folded: a', ' b', 'Content-Length: 2'], '{}'),
    rawCase(Buffer.from(`GET ${path} HTTP/1.1\n${hostLine}\n\n`)),
    rawCase(request([`GET ${path} HTTP/1.1`, 'Connection: close'])),
    rawCase(request([`GET ${path} HTTP/1.1`, hostLine, hostLine, 'Connection: close'])),
  );
}

function oversizedHeads(path: string): fc.Arbitrary<RawCase> {
  return fc.oneof(
    fc
      .integer({ min: 8 * 1024, max: 64 * 1024 })
      .map((size) => rawCase(request([`GET ${path} HTTP/1.1`, hostLine, `X-Padding: ${'a'.repeat(size)}`, 'Connection: close']))),
    fc
      .integer({ min: 100, max: 3_000 })
      .map((count) =>
        rawCase(
          request([
            `GET ${path} HTTP/1.1`,
            hostLine,
            ...Array.from({ length: count }, (_, index) => `X-H${index}: ${'v'.repeat(8)}`),
            'Connection: close',
          ]),
        ),
      ),
    fc
      .integer({ min: 8 * 1024, max: 64 * 1024 })
      .map((size) => rawCase(request([`GET ${path}?page=1&x=${'b'.repeat(size)} HTTP/1.1`, hostLine, 'Connection: close']))),
  );
}

/** Malformed requests, none of which stalls. */
export function malformedRequest(path: string): fc.Arbitrary<RawCase> {
  return fc.oneof(badRequestLines(path), badFraming(path), oversizedHeads(path));
}

/** A request whose body stops short of its announced length, or whose last chunk never comes: the server must answer 408. */
export function stalledBody(path: string): fc.Arbitrary<RawCase> {
  return fc.oneof(
    fc
      .tuple(fc.integer({ min: 1, max: 60_000 }), fc.nat())
      .map(([announced, sent]) =>
        rawCase(
          request(
            [`POST ${path} HTTP/1.1`, hostLine, 'Content-Type: application/json', `Content-Length: ${announced}`],
            `{"a":"${'x'.repeat(announced)}`.slice(0, sent % announced),
          ),
        ),
      ),
    fc.constant(rawCase(request([`POST ${path} HTTP/1.1`, hostLine, 'Content-Type: application/json', 'Transfer-Encoding: chunked'], '2\r\n{}\r\n'))),
  );
}
