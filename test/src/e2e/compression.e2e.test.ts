import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { exampleRequests } from '../support/example-requests';
import { requestBytes, type BytesAnswer } from '../support/http-bytes';
import { startLocalStack, type LocalStack } from '../support/local-stack';

/**
 * Compression as clients meet it, through the gateway, on every operation of its
 * OpenAPI document and on the document itself (docs/behaviour.md section 8): a body
 * over 1 KB goes out in the coding Accept-Encoding picks, br before gzip, each coding
 * under an ETag of its own; If-None-Match and HEAD hold for every coding; a body of
 * 1 KB or less goes out plain whatever the client accepts.
 */
const COMPRESSION_THRESHOLD_BYTES = 1024;
const CODINGS = ['br', 'gzip'] as const;
const DECODERS = { br: brotliDecompressSync, gzip: gunzipSync };
const BROWSER_ACCEPT_ENCODING = 'gzip, deflate, br';

interface Target {
  /** Method and path, for the failure messages. */
  name: string;
  method: 'GET' | 'POST';
  url: string;
  request: { headers?: Record<string, string>; body?: string };
}

let stack: LocalStack;
let targets: Target[];

beforeAll(async () => {
  stack = await startLocalStack({ blocks: 120 });
  targets = (await exampleRequests(stack.gateway)).map(({ path, ...example }) => ({ ...example, url: `${stack.gateway}${path}` }));
}, 180_000);

afterAll(async () => {
  await stack?.stop();
}, 60_000);

function ask(target: Target, headers: Record<string, string>, method: string = target.method): Promise<BytesAnswer> {
  const body = method === 'HEAD' ? undefined : target.request.body;
  return requestBytes(target.url, { method, headers: { ...target.request.headers, ...headers }, body });
}

const acceptOnly = (coding: string): Record<string, string> => (coding === 'identity' ? {} : { 'accept-encoding': coding });

/** The rules one answer broke, each naming the request. */
function broken(request: string, rules: [holds: boolean, rule: string][]): string[] {
  return rules.filter(([holds]) => !holds).map(([, rule]) => `${request}: ${rule}`);
}

/** What an answer in `coding` must be, given the plain answer to the same request. */
function codingViolations(target: Target, coding: (typeof CODINGS)[number], plain: BytesAnswer, answer: BytesAnswer): string[] {
  const request = `${target.name} accepting ${coding}`;
  if (plain.body.length <= COMPRESSION_THRESHOLD_BYTES) {
    return broken(request, [
      [answer.headers['content-encoding'] === undefined, `a body of ${plain.body.length} bytes came as ${answer.headers['content-encoding']}`],
      [answer.body.equals(plain.body), 'the body differs from the plain answer'],
      [answer.headers.etag === plain.headers.etag, 'the ETag differs from the plain answer, for the same bytes'],
    ]);
  }
  const decoded = answer.headers['content-encoding'] === coding ? DECODERS[coding](answer.body) : undefined;
  return broken(request, [
    [decoded !== undefined, `a body of ${plain.body.length} bytes came as ${answer.headers['content-encoding'] ?? 'identity'}`],
    [decoded === undefined || decoded.equals(plain.body), 'the decoded body differs from the plain answer'],
    [answer.headers['content-length'] === String(answer.body.length), 'Content-Length is not the encoded length'],
    [answer.headers.etag !== undefined && answer.headers.etag !== plain.headers.etag, 'the ETag is not one of its own'],
  ]);
}

describe('compression through the gateway', () => {
  it('sends every operation over 1 KB in the coding asked for and smaller ones plain, each coding with its own ETag', async () => {
    const violations: string[] = [];
    const sizes: number[] = [];
    for (const target of targets) {
      const plain = await ask(target, {});
      if (plain.status !== 200) {
        violations.push(`${target.name}: answered ${plain.status}`);
        continue;
      }
      sizes.push(plain.body.length);
      violations.push(...broken(target.name, [[String(plain.headers.vary).includes('Accept-Encoding'), 'no Vary: Accept-Encoding']]));
      for (const coding of CODINGS) violations.push(...codingViolations(target, coding, plain, await ask(target, acceptOnly(coding))));
      const browser = await ask(target, { 'accept-encoding': BROWSER_ACCEPT_ENCODING });
      const expected = plain.body.length > COMPRESSION_THRESHOLD_BYTES ? 'br' : undefined;
      violations.push(
        ...broken(`${target.name} from a browser`, [
          [browser.headers['content-encoding'] === expected, `came as ${browser.headers['content-encoding']}`],
        ]),
      );
    }
    expect(violations).toEqual([]);
    // Both rules were put to the test: some answers are over the threshold, some under it.
    expect(sizes.some((size) => size > COMPRESSION_THRESHOLD_BYTES)).toBe(true);
    expect(sizes.some((size) => size <= COMPRESSION_THRESHOLD_BYTES)).toBe(true);
  });

  it("answers every GET's If-None-Match with 304 and its HEAD with the GET's head, in every coding", async () => {
    const violations: string[] = [];
    for (const target of targets.filter(({ method }) => method === 'GET')) {
      for (const coding of ['identity', ...CODINGS]) {
        const get = await ask(target, acceptOnly(coding));
        const head = await ask(target, acceptOnly(coding), 'HEAD');
        const unchanged = await ask(target, { ...acceptOnly(coding), 'if-none-match': String(get.headers.etag) });
        // An ETag names one coding: it does not validate the plain form of a compressed page.
        const compressed = get.headers['content-encoding'] !== undefined;
        const plainForm = compressed ? await ask(target, { 'if-none-match': String(get.headers.etag) }) : undefined;
        violations.push(
          ...broken(`${target.name} accepting ${coding}`, [
            [head.status === 200 && head.body.length === 0, `HEAD answered ${head.status} with ${head.body.length} body bytes`],
            [head.headers.etag === get.headers.etag, 'HEAD gave another ETag'],
            [head.headers['content-encoding'] === get.headers['content-encoding'], 'HEAD gave another Content-Encoding'],
            [head.headers['content-length'] === get.headers['content-length'], 'HEAD gave another Content-Length'],
            [unchanged.status === 304 && unchanged.body.length === 0, `If-None-Match with its ETag answered ${unchanged.status}`],
            [unchanged.headers.etag === get.headers.etag, 'the 304 gave another ETag'],
            [!compressed || plainForm?.status === 200, `its ETag validated the plain form (${plainForm?.status})`],
          ]),
        );
      }
    }
    expect(violations).toEqual([]);
  });
});
