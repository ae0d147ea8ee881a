import { Agent } from 'node:http';
import { connect } from 'node:net';
import { Writable } from 'node:stream';
import { createLogger, createMetrics } from '@ledger-api/observability';
import { send, startFakeService, startGateway, timed, type FakeService, type RunningServer } from './testing/gateway-harness';
import { expectWithinDeadline, waitFor } from '@ledger-api/test-kit';

const TOO_LARGE = { statusCode: 413, error: 'Payload Too Large', message: 'Payload content length greater than maximum allowed: 65536' };

const logLines: Array<{ msg: string }> = [];
const metrics = createMetrics('gateway', false);
let service: FakeService;
let gateway: RunningServer;
let holdAnswers = false;

beforeAll(async () => {
  service = await startFakeService('nft-base', (req, res) => {
    if (holdAnswers) return;
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ bytes: req.body.length, length: req.headers['content-length'] ?? null }));
  });
  const logger = createLogger({
    name: 'gateway',
    destination: new Writable({ write: (chunk, _encoding, done) => done(void logLines.push(JSON.parse(String(chunk)))) }),
  });
  gateway = await startGateway({ NFT_BASE_URL: service.url }, { logger, metrics });
});

afterAll(() => Promise.all([gateway.close(), service.close()]));

const SEARCH = '/api/nft/assets/search';

/** Writes bytes no HTTP client would send and reads what comes back until the gateway closes the connection. */
async function rawExchange(url: string, bytes: string): Promise<string> {
  const socket = connect(Number(new URL(url).port), '127.0.0.1');
  socket.write(bytes);
  let received = '';
  for await (const chunk of socket) received += String(chunk);
  return received;
}

const jsonOf = (bytes: number) => JSON.stringify({ big: 'x'.repeat(bytes) });

describe('request bodies through the gateway', () => {
  it.each([
    ['declared with Content-Length', true],
    ['sent chunked', false],
  ])('are refused with 413 by the gateway over 64 KiB when %s, several at once', async (_case, declared) => {
    const received = service.received.length;
    for (let round = 0; round < 3; round++) {
      const answers = await Promise.all(
        [70_000, 500_000, 2_000_000, 10_000_000].map((bytes) => {
          const body = jsonOf(bytes);
          return send(`${gateway.url}${SEARCH}`, { method: 'POST', headers: declared ? { 'content-length': String(body.length) } : {}, body });
        }),
      );
      for (const answer of answers) {
        expect(answer.status).toBe(413);
        expect(answer.headers['content-type']).toMatch(/^application\/json/);
        expect(JSON.parse(answer.body)).toEqual(TOO_LARGE);
      }
    }
    expect(service.received.length).toBe(received);
  });

  it('keeps the connection usable after a 413', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const refused = await send(`${gateway.url}${SEARCH}`, { method: 'POST', body: jsonOf(2_000_000), agent });
      expect(refused.status).toBe(413);
      const next = await send(`${gateway.url}${SEARCH}`, { method: 'POST', body: '{"a":1}', agent });
      expect(next.status).toBe(200);
      expect(next.reusedSocket).toBe(true);
    } finally {
      agent.destroy();
    }
  });

  it('forwards a chunked body within the limit with its length', async () => {
    const body = jsonOf(60_000);
    const answer = await send(`${gateway.url}${SEARCH}`, { method: 'POST', body });
    expect(JSON.parse(answer.body)).toEqual({ bytes: body.length, length: String(body.length) });
  });
});

describe('requests the HTTP parser refuses, at the gateway', () => {
  it('answers an unknown method with the 404 body', async () => {
    const answer = await send(`${gateway.url}/api/nft/assets`, { method: 'FOO' });
    expect(answer.status).toBe(404);
    expect(JSON.parse(answer.body)).toEqual({ statusCode: 404, error: 'Not Found', message: 'Not Found' });
  });

  it('answers a missing Host with the 400 body', async () => {
    const answer = await send(`${gateway.url}/api/nft/assets`, { setHost: false });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toEqual({ statusCode: 400, error: 'Bad Request', message: 'Missing Host header' });
  });

  it('answers headers over the limit with the 431 body', async () => {
    const answer = await send(`${gateway.url}/api/nft/assets`, { headers: { 'x-big': 'a'.repeat(20_000) } });
    expect(answer.status).toBe(431);
    expect(JSON.parse(answer.body)).toMatchObject({ statusCode: 431, error: 'Request Header Fields Too Large' });
  });

  it('answers malformed chunked framing with the 400 body', async () => {
    const received = await rawExchange(gateway.url, `POST ${SEARCH} HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`);
    expect(received).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(received).toMatch(/\r\nContent-Type: application\/json/i);
    expect(JSON.parse(received.slice(received.indexOf('\r\n\r\n') + 4))).toEqual({ statusCode: 400, error: 'Bad Request', message: 'Bad Request' });
  });

  it('answers a body that stalls past the deadline with 408, never asking the service', async () => {
    const requestTimeoutMs = 300;
    const impatient = await startGateway({ NFT_BASE_URL: service.url, REQUEST_TIMEOUT_MS: String(requestTimeoutMs) });
    try {
      const received = service.received.length;
      const stalled = `POST ${SEARCH} HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"only":`;
      const { result: answer, ms } = await timed(() => rawExchange(impatient.url, stalled));
      expect(answer).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
      expect(answer).toContain('{"statusCode":408,"error":"Request Timeout","message":"Request Timeout"}');
      expectWithinDeadline(ms, requestTimeoutMs);
      expect(service.received.length).toBe(received);
    } finally {
      await impatient.close();
    }
  });
});

describe('a client that leaves', () => {
  it('is not an upstream failure', async () => {
    holdAnswers = true;
    try {
      const received = service.received.length;
      const logged = logLines.length;
      const leaving = new AbortController();
      const request = fetch(`${gateway.url}${SEARCH}`, { method: 'POST', body: '{}', signal: leaving.signal }).catch(() => 'left');
      await waitFor(() => service.received.length > received);
      leaving.abort();
      expect(await request).toBe('left');
      await waitFor(() => logLines.slice(logged).some(({ msg }) => msg === 'request completed'));
      expect(logLines.slice(logged).map(({ msg }) => msg)).not.toContain('upstream request failed');
      const errors = await metrics.registry.getSingleMetric('gateway_upstream_errors_total')?.get();
      expect(errors?.values ?? []).toEqual([]);
    } finally {
      holdAnswers = false;
    }
  });
});
